import { expect } from 'chai';
import { ALL_WORKSPACES, globMatch, isAllowed, validateGrants, type AccessRequest } from '../../src/domain/auth/grants.ts';
import { authorize, can } from '../../src/domain/auth/authorize.ts';
import type { Grant, Principal } from '../../src/domain/auth/principal.ts';
import { AppError } from '../../src/errors/app-error.ts';

function allow(actions: string[], resources: string[], extra: Partial<Grant> = {}): Grant {
  return { effect: 'allow', actions, resources, ...extra };
}
function deny(actions: string[], resources: string[], extra: Partial<Grant> = {}): Grant {
  return { effect: 'deny', actions, resources, ...extra };
}
function ask(action: string, resource: string, extra: Partial<AccessRequest> = {}): AccessRequest {
  return { action, resource, workspace: 'blog', ...extra };
}

interface Case {
  name: string;
  grants: Grant[];
  request: AccessRequest;
  userId?: string;
  expected: boolean;
}

const cases: Case[] = [
  // No grants, exact matches
  { name: 'no grants deny everything', grants: [], request: ask('content.read', 'content:posts:*'), expected: false },
  { name: 'exact action and resource', grants: [allow(['content.read'], ['content:posts:*'])], request: ask('content.read', 'content:posts:*'), expected: true },
  { name: 'other action is not allowed', grants: [allow(['content.read'], ['content:posts:*'])], request: ask('content.update', 'content:posts:*'), expected: false },
  { name: 'other collection is not allowed', grants: [allow(['content.read'], ['content:posts:*'])], request: ask('content.read', 'content:pages:*'), expected: false },
  { name: 'one of several actions matches', grants: [allow(['content.read', 'content.update'], ['content:posts:*'])], request: ask('content.update', 'content:posts:*'), expected: true },
  { name: 'one of several resources matches', grants: [allow(['schema.read'], ['schema:pages', 'schema:posts'])], request: ask('schema.read', 'schema:posts'), expected: true },
  { name: 'schema grant on one type does not reach another', grants: [allow(['schema.read'], ['schema:posts'])], request: ask('schema.read', 'schema:pages'), expected: false },
  // Action wildcards
  { name: '* action matches anything', grants: [allow(['*'], ['*'])], request: ask('users.delete', 'users:u1'), expected: true },
  { name: 'content.* matches content.publish', grants: [allow(['content.*'], ['*'])], request: ask('content.publish', 'content:posts:a'), expected: true },
  { name: 'content.* does not match media.read', grants: [allow(['content.*'], ['*'])], request: ask('media.read', 'media:*'), expected: false },
  { name: 'content.* does not match schema.read', grants: [allow(['content.*'], ['*'])], request: ask('schema.read', 'schema:posts'), expected: false },
  // Resource wildcards
  { name: '* resource matches any resource', grants: [allow(['media.delete'], ['*'])], request: ask('media.delete', 'media:logo.png'), expected: true },
  { name: 'content:* matches an entry', grants: [allow(['content.read'], ['content:*'])], request: ask('content.read', 'content:posts:hello'), expected: true },
  { name: 'content:* matches a collection list', grants: [allow(['content.read'], ['content:*'])], request: ask('content.read', 'content:posts:*'), expected: true },
  { name: 'content:* does not match media', grants: [allow(['content.read'], ['content:*'])], request: ask('content.read', 'media:*'), expected: false },
  { name: 'content:posts:* matches one entry', grants: [allow(['content.update'], ['content:posts:*'])], request: ask('content.update', 'content:posts:hello'), expected: true },
  { name: 'content:posts:* does not match content:postsx:a', grants: [allow(['content.update'], ['content:posts:*'])], request: ask('content.update', 'content:postsx:a'), expected: false },
  { name: 'entry grant does not allow the collection list', grants: [allow(['content.read'], ['content:posts:hello'])], request: ask('content.read', 'content:posts:*'), expected: false },
  { name: 'entry grant allows that entry', grants: [allow(['content.read'], ['content:posts:hello'])], request: ask('content.read', 'content:posts:hello'), expected: true },
  { name: 'media category wildcard matches a subcategory', grants: [allow(['media.upload'], ['media:category:Brand / *'])], request: ask('media.upload', 'media:category:Brand / Logos'), expected: true },
  { name: 'media category wildcard does not match another category', grants: [allow(['media.upload'], ['media:category:Brand / *'])], request: ask('media.upload', 'media:category:Press / Logos'), expected: false },
  { name: 'media:* matches a file', grants: [allow(['media.read'], ['media:*'])], request: ask('media.read', 'media:photo.jpg'), expected: true },
  { name: 'middle wildcard in a resource', grants: [allow(['content.read'], ['content:*:hello'])], request: ask('content.read', 'content:posts:hello'), expected: true },
  // Deny wins
  { name: 'deny beats allow on the same resource', grants: [allow(['*'], ['*']), deny(['content.delete'], ['content:posts:*'])], request: ask('content.delete', 'content:posts:a'), expected: false },
  { name: 'deny listed first still wins', grants: [deny(['content.delete'], ['*']), allow(['content.delete'], ['content:posts:*'])], request: ask('content.delete', 'content:posts:a'), expected: false },
  { name: 'deny on another collection leaves allow intact', grants: [allow(['*'], ['*']), deny(['content.delete'], ['content:pages:*'])], request: ask('content.delete', 'content:posts:a'), expected: true },
  { name: 'deny alone allows nothing', grants: [deny(['content.delete'], ['content:pages:*'])], request: ask('content.read', 'content:posts:a'), expected: false },
  { name: 'deny with action wildcard', grants: [allow(['*'], ['*']), deny(['users.*'], ['*'])], request: ask('users.read', 'users:*', { workspace: ALL_WORKSPACES }), expected: false },
  // Workspace prefixes
  { name: 'workspace prefix matches its workspace', grants: [allow(['content.read'], ['workspace:blog:content:*'])], request: ask('content.read', 'content:posts:a'), expected: true },
  { name: 'workspace prefix does not match another workspace', grants: [allow(['content.read'], ['workspace:shop:content:*'])], request: ask('content.read', 'content:posts:a'), expected: false },
  { name: 'workspace:*: prefix matches any workspace', grants: [allow(['content.read'], ['workspace:*:content:*'])], request: ask('content.read', 'content:posts:a', { workspace: 'shop' }), expected: true },
  { name: 'unprefixed grant applies in every workspace', grants: [allow(['content.read'], ['content:*'])], request: ask('content.read', 'content:posts:a', { workspace: 'shop' }), expected: true },
  { name: 'workspace-scoped grant does not reach global areas', grants: [allow(['*'], ['workspace:blog:*'])], request: ask('users.read', 'users:*', { workspace: ALL_WORKSPACES }), expected: false },
  { name: 'workspace:*: grant reaches global areas', grants: [allow(['users.read'], ['workspace:*:users:*'])], request: ask('users.read', 'users:*', { workspace: ALL_WORKSPACES }), expected: true },
  { name: 'workspace-scoped deny only denies in that workspace', grants: [allow(['*'], ['*']), deny(['content.delete'], ['workspace:shop:*'])], request: ask('content.delete', 'content:posts:a'), expected: true },
  { name: 'workspace-scoped deny applies in that workspace', grants: [allow(['*'], ['*']), deny(['content.delete'], ['workspace:blog:*'])], request: ask('content.delete', 'content:posts:a'), expected: false },
  // Fields
  { name: 'fields allow-list accepts listed fields', grants: [allow(['content.update'], ['content:*'], { fields: ['title', 'body'] })], request: ask('content.update', 'content:posts:a', { payload: { fields: ['body'] } }), expected: true },
  { name: 'fields allow-list refuses an unlisted field', grants: [allow(['content.update'], ['content:*'], { fields: ['title'] })], request: ask('content.update', 'content:posts:a', { payload: { fields: ['title', 'price'] } }), expected: false },
  { name: 'fields allow-list ignores requests that write no fields', grants: [allow(['content.delete'], ['content:*'], { fields: ['title'] })], request: ask('content.delete', 'content:posts:a'), expected: true },
  { name: 'a second allow without fields still allows', grants: [allow(['content.update'], ['content:*'], { fields: ['title'] }), allow(['content.update'], ['content:posts:*'])], request: ask('content.update', 'content:posts:a', { payload: { fields: ['price'] } }), expected: true },
  { name: 'deny with fields denies writes to those fields', grants: [allow(['*'], ['*']), deny(['content.update'], ['*'], { fields: ['price'] })], request: ask('content.update', 'content:posts:a', { payload: { fields: ['title', 'price'] } }), expected: false },
  { name: 'deny with fields leaves other fields alone', grants: [allow(['*'], ['*']), deny(['content.update'], ['*'], { fields: ['price'] })], request: ask('content.update', 'content:posts:a', { payload: { fields: ['title'] } }), expected: true },
  // Conditions: status
  { name: 'status condition holds for a listed status', grants: [allow(['content.update'], ['*'], { conditions: { status: ['draft'] } })], request: ask('content.update', 'content:posts:a', { payload: { status: 'draft' } }), expected: true },
  { name: 'status condition fails for another status', grants: [allow(['content.update'], ['*'], { conditions: { status: ['draft'] } })], request: ask('content.update', 'content:posts:a', { payload: { status: 'published' } }), expected: false },
  { name: 'status condition fails when no status is known', grants: [allow(['content.update'], ['*'], { conditions: { status: ['draft'] } })], request: ask('content.update', 'content:posts:a'), expected: false },
  { name: 'deny on published status blocks publishing only', grants: [allow(['content.*'], ['*']), deny(['content.publish'], ['*'], { conditions: { status: ['published'] } })], request: ask('content.publish', 'content:posts:a', { payload: { status: 'published' } }), expected: false },
  // Conditions: locales
  { name: 'locale condition holds for a listed locale', grants: [allow(['content.update'], ['*'], { conditions: { locales: ['de', 'fr'] } })], request: ask('content.update', 'content:posts:a', { payload: { locale: 'fr' } }), expected: true },
  { name: 'locale condition fails for another locale', grants: [allow(['content.update'], ['*'], { conditions: { locales: ['de'] } })], request: ask('content.update', 'content:posts:a', { payload: { locale: 'en' } }), expected: false },
  { name: 'locale condition fails without a locale', grants: [allow(['content.update'], ['*'], { conditions: { locales: ['de'] } })], request: ask('content.update', 'content:posts:a'), expected: false },
  // Conditions: own
  { name: 'own holds for the author', grants: [allow(['content.update'], ['*'], { conditions: { own: true } })], request: ask('content.update', 'content:posts:a', { ownerId: 'u1' }), userId: 'u1', expected: true },
  { name: 'own fails for another author', grants: [allow(['content.update'], ['*'], { conditions: { own: true } })], request: ask('content.update', 'content:posts:a', { ownerId: 'u2' }), userId: 'u1', expected: false },
  { name: 'own fails without a user (tokens)', grants: [allow(['content.update'], ['*'], { conditions: { own: true } })], request: ask('content.update', 'content:posts:a', { ownerId: 'u1' }), expected: false },
  { name: 'own fails when the owner is unknown', grants: [allow(['content.update'], ['*'], { conditions: { own: true } })], request: ask('content.update', 'content:posts:a'), userId: 'u1', expected: false },
  { name: 'own false is no condition', grants: [allow(['content.update'], ['*'], { conditions: { own: false } })], request: ask('content.update', 'content:posts:a', { ownerId: 'u2' }), userId: 'u1', expected: true },
  { name: 'all conditions must hold together', grants: [allow(['content.update'], ['*'], { conditions: { status: ['draft'], locales: ['de'], own: true } })], request: ask('content.update', 'content:posts:a', { payload: { status: 'draft', locale: 'en' }, ownerId: 'u1' }), userId: 'u1', expected: false },
  { name: 'all conditions holding allows', grants: [allow(['content.update'], ['*'], { conditions: { status: ['draft'], locales: ['de'], own: true } })], request: ask('content.update', 'content:posts:a', { payload: { status: 'draft', locale: 'de' }, ownerId: 'u1' }), userId: 'u1', expected: true },
  // Aliases: an entry named by id and by slug
  { name: 'an allow on the slug alias matches', grants: [allow(['content.read'], ['content:posts:hello'])], request: ask('content.read', 'content:posts:abc123', { aliases: ['content:posts:hello'] }), expected: true },
  { name: 'a deny on the id wins over an allow on the slug', grants: [allow(['content.read'], ['content:posts:hello']), deny(['content.read'], ['content:posts:abc123'])], request: ask('content.read', 'content:posts:abc123', { aliases: ['content:posts:hello'] }), expected: false },
  { name: 'aliases still need the workspace prefix to match', grants: [allow(['content.read'], ['workspace:shop:content:posts:hello'])], request: ask('content.read', 'content:posts:abc123', { aliases: ['content:posts:hello'] }), expected: false },
  // Unknown actions never match by accident
  { name: 'an unknown action asked is not matched by a specific grant', grants: [allow(['content.read'], ['*'])], request: ask('content.readx', 'content:posts:a'), expected: false },
  { name: 'literal characters are not patterns', grants: [allow(['content.read'], ['content:post?:*'])], request: ask('content.read', 'content:posts:a'), expected: false },
];

describe('grants engine: isAllowed', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).to.be.at.least(40);
  });
  for (const testCase of cases) {
    it(testCase.name, () => {
      expect(isAllowed(testCase.grants, testCase.request, testCase.userId)).to.equal(testCase.expected);
    });
  }
});

describe('grants engine: globMatch', () => {
  const globs: Array<[string, string, boolean]> = [
    ['*', '', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'aXbY', false],
    ['**', 'anything', true],
    ['abc', 'abcd', false],
    ['*d', 'abcd', true],
  ];
  for (const [pattern, value, expected] of globs) {
    it(`"${pattern}" vs "${value}" is ${expected}`, () => {
      expect(globMatch(pattern, value)).to.equal(expected);
    });
  }
});

function fieldsOfFailure(input: unknown): Record<string, string> {
  try {
    validateGrants(input);
  } catch (error) {
    expect(error).to.be.instanceOf(AppError);
    const appError = error as AppError;
    expect(appError.code).to.equal('validation_failed');
    return appError.fields ?? {};
  }
  expect.fail('validateGrants accepted invalid input');
}

describe('grants engine: validateGrants', () => {
  it('accepts and copies valid grants', () => {
    const input = [
      { effect: 'allow', actions: ['content.*', 'schema.read'], resources: ['workspace:blog:content:posts:*', 'schema:posts'], fields: ['title'], conditions: { status: ['draft'], locales: ['de'], own: true } },
      { effect: 'deny', actions: ['*'], resources: ['media:category:Brand / *', 'users:*', 'workspace:*:*'] },
    ];
    expect(validateGrants(input)).to.deep.equal(input);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['a non-array', { effect: 'allow' }, 'permissions'],
    ['an unknown action', [{ effect: 'allow', actions: ['content.fly'], resources: ['*'] }], 'permissions.0.actions.0'],
    ['an unknown action area wildcard', [{ effect: 'allow', actions: ['robots.*'], resources: ['*'] }], 'permissions.0.actions.0'],
    ['a partial action wildcard', [{ effect: 'allow', actions: ['content.re*'], resources: ['*'] }], 'permissions.0.actions.0'],
    ['an unknown effect', [{ effect: 'maybe', actions: ['*'], resources: ['*'] }], 'permissions.0.effect'],
    ['an unknown key', [{ effect: 'allow', actions: ['*'], resources: ['*'], extra: 1 }], 'permissions.0.extra'],
    ['an unknown condition', [{ effect: 'allow', actions: ['*'], resources: ['*'], conditions: { weekday: ['mon'] } }], 'permissions.0.conditions.weekday'],
    ['an unknown status', [{ effect: 'allow', actions: ['*'], resources: ['*'], conditions: { status: ['gone'] } }], 'permissions.0.conditions.status.0'],
    ['a non-boolean own', [{ effect: 'allow', actions: ['*'], resources: ['*'], conditions: { own: 'yes' } }], 'permissions.0.conditions.own'],
    ['an empty action list', [{ effect: 'allow', actions: [], resources: ['*'] }], 'permissions.0.actions'],
    ['a resource of an unknown type', [{ effect: 'allow', actions: ['*'], resources: ['robots:*'] }], 'permissions.0.resources.0'],
    ['a content resource without entry part', [{ effect: 'allow', actions: ['*'], resources: ['content:posts'] }], 'permissions.0.resources.0'],
    ['a bad workspace prefix', [{ effect: 'allow', actions: ['*'], resources: ['workspace:Blog!:content:*'] }], 'permissions.0.resources.0'],
    ['a prefix without resource', [{ effect: 'allow', actions: ['*'], resources: ['workspace:blog'] }], 'permissions.0.resources.0'],
    ['a resource with a control character', [{ effect: 'allow', actions: ['*'], resources: ['media:a\nb'] }], 'permissions.0.resources.0'],
    ['a non-string action', [{ effect: 'allow', actions: [7], resources: ['*'] }], 'permissions.0.actions.0'],
    ['a grant that is not an object', ['allow everything'], 'permissions.0'],
  ];
  for (const [name, input, field] of invalid) {
    it(`rejects ${name} with validation_failed naming ${field}`, () => {
      expect(fieldsOfFailure(input)).to.have.property(field);
    });
  }
});

describe('authorize and can', () => {
  const token: Principal = { kind: 'token', id: 't1', name: 'ci', grants: [allow(['content.read'], ['content:*'])] };
  const user: Principal = { kind: 'user', id: 'u1', username: 'ann', displayName: 'Ann', role: 'editor', grants: [allow(['content.update'], ['*'], { conditions: { own: true } })] };

  it('throws unauthorized for anonymous principals', () => {
    expect(() => authorize({ kind: 'anonymous' }, ask('content.read', 'content:posts:*'))).to.throw(AppError).with.property('code', 'unauthorized');
  });
  it('throws forbidden when the grants do not allow it', () => {
    expect(() => authorize(token, ask('content.update', 'content:posts:a'))).to.throw(AppError).with.property('code', 'forbidden');
  });
  it('returns quietly when allowed', () => {
    expect(authorize(token, ask('content.read', 'content:posts:a'))).to.equal(undefined);
  });
  it('passes the user id for the own condition', () => {
    expect(can(user, ask('content.update', 'content:posts:a', { ownerId: 'u1' }))).to.equal(true);
    expect(can(user, ask('content.update', 'content:posts:a', { ownerId: 'u2' }))).to.equal(false);
  });
  it('is false for anonymous principals', () => {
    expect(can({ kind: 'anonymous' }, ask('content.read', 'content:posts:*'))).to.equal(false);
  });
});

describe('grants: resource aliases', () => {
  const entry = { action: 'content.update', resource: 'content:posts:abc123', aliases: ['content:posts:hello'], workspace: 'default' };
  it('matches a grant that names the alias', () => {
    expect(isAllowed([{ effect: 'allow', actions: ['content.update'], resources: ['content:posts:hello'] }], entry)).to.equal(true);
  });
  it('lets a deny on the alias win over an allow on the id', () => {
    expect(
      isAllowed(
        [
          { effect: 'allow', actions: ['content.update'], resources: ['content:posts:abc123'] },
          { effect: 'deny', actions: ['content.update'], resources: ['content:posts:hello'] },
        ],
        entry,
      ),
    ).to.equal(false);
  });
  it('keeps workspace prefixes working for aliases', () => {
    expect(isAllowed([{ effect: 'allow', actions: ['*'], resources: ['workspace:blog:content:posts:hello'] }], entry)).to.equal(false);
    expect(isAllowed([{ effect: 'allow', actions: ['*'], resources: ['workspace:default:content:posts:hello'] }], entry)).to.equal(true);
  });
});
