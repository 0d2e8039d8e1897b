// Whether one set of grants holds at least another (domain/auth/grant-coverage.ts).
import { expect } from 'chai';
import { grantsCover } from '../../src/domain/auth/grant-coverage.ts';
import type { Grant } from '../../src/domain/auth/principal.ts';

const allow = (actions: string[], resources: string[], extra: Partial<Grant> = {}): Grant => ({ effect: 'allow', actions, resources, ...extra });

describe('grant coverage', () => {
  it('covers what the same or wider grants allow', () => {
    expect(grantsCover([allow(['*'], ['*'])], [allow(['users.read'], ['users:*'])])).to.equal(true);
    expect(grantsCover([allow(['content.*'], ['content:*'])], [allow(['content.read', 'content.update'], ['content:posts:*'])])).to.equal(true);
    expect(grantsCover([allow(['content.read'], ['content:posts:*'])], [allow(['content.read'], ['content:posts:*'])])).to.equal(true);
    expect(grantsCover([], [{ effect: 'deny', actions: ['*'], resources: ['*'] }]), 'a deny gives nothing').to.equal(true);
  });

  it('does not cover wider actions, resources or workspaces', () => {
    expect(grantsCover([allow(['users.*'], ['*'])], [allow(['*'], ['*'])])).to.equal(false);
    expect(grantsCover([allow(['content.*'], ['content:posts:*'])], [allow(['content.read'], ['content:*'])])).to.equal(false);
    expect(grantsCover([allow(['content.*'], ['workspace:blog:content:*'])], [allow(['content.read'], ['content:*'])])).to.equal(false);
    expect(grantsCover([allow(['content.*'], ['workspace:blog:content:*'])], [allow(['content.read'], ['workspace:blog:content:posts:*'])])).to.equal(true);
  });

  it('lets a deny held or a condition on a held grant take away coverage', () => {
    expect(grantsCover([allow(['*'], ['*']), { effect: 'deny', actions: ['users.delete'], resources: ['*'] }], [allow(['users.*'], ['*'])])).to.equal(false);
    expect(grantsCover([allow(['content.*'], ['*'], { conditions: { own: true } })], [allow(['content.read'], ['content:*'])])).to.equal(false);
    expect(grantsCover([allow(['content.*'], ['*'], { fields: ['title'] })], [allow(['content.update'], ['content:*'])])).to.equal(false);
  });
});
