// `cms user …` and `cms token …`: the administrator's way in when the admin
// app is out of reach (a forgotten password, no admin left, a token for CI).
// They change the state folder through the same services the admin API uses,
// holding the data root's lock (storage/data-lock.ts) while they do: a running
// server holds that lock and keeps users and tokens in memory, so these
// commands refuse to run beside it instead of being overwritten by it.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from '../config/config.ts';
import { notFound } from '../errors/app-error.ts';
import { AccountStore, ADMIN_GRANTS, ADMIN_ROLE, type UserRecord } from '../domain/auth/account-store.ts';
import type { Grant, Principal } from '../domain/auth/principal.ts';
import { SessionStore } from '../domain/auth/session-store.ts';
import { TokenService } from '../domain/auth/token-service.ts';
import { UserService } from '../domain/auth/user-service.ts';
import { lockDataRoot } from '../storage/data-lock.ts';
import { StateStore } from '../storage/state-store.ts';
import { stringOption, UsageError, type CommandSpec, type OptionSpec, type ParsedInput } from './arguments.ts';

// The command line acts as an administrator: whoever can run it can edit the state folder anyway.
const OPERATOR: Principal = { kind: 'user', id: 'cli', username: 'cli', displayName: 'cms command line', role: ADMIN_ROLE, grants: [...ADMIN_GRANTS] };
const DATA: OptionSpec = { type: 'string', value: 'DIR', description: 'the data root (holding state/); default $CMS_DATA_DIR or the current folder' };
const PASSWORD_STDIN: OptionSpec = { type: 'boolean', description: 'read the password from the first line of stdin instead of generating one' };
const NOTE = 'A running server holds the data root (state/cms.lock) and keeps users and tokens in memory: this command refuses to run beside it; stop the server or use the admin app.';

interface Accounts {
  users: UserService;
  accounts: AccountStore;
  tokens: TokenService;
}

export const userCommands: CommandSpec<number>[] = [
  {
    name: 'user create',
    summary: 'Creates a user (an administrator unless --role says otherwise) and prints its password when it was generated.',
    args: ['USERNAME'],
    options: {
      data: DATA,
      role: { type: 'string', value: 'ROLE', description: 'admin (default), editor, viewer or a role made in the admin app' },
      email: { type: 'string', value: 'EMAIL', description: 'the user\'s email address' },
      name: { type: 'string', value: 'NAME', description: 'the display name (default: the username)' },
      'password-stdin': PASSWORD_STDIN,
    },
    notes: [NOTE],
    run: (input) =>
      withAccounts(input, async ({ users }) => {
        const { password, generated } = await passwordOf(input);
        const user = await users.create(OPERATOR, {
          username: input.args[0],
          password,
          role: stringOption(input, 'role') ?? ADMIN_ROLE,
          email: stringOption(input, 'email'),
          display_name: stringOption(input, 'name'),
        });
        process.stdout.write(`Created ${user.role} "${user.username}" (id ${user.id}).\n`);
        if (generated) process.stdout.write(`Password (shown once): ${password}\n`);
      }),
  },
  {
    name: 'user list',
    summary: 'Lists every user: username, role, email, id and when it was created.',
    options: { data: DATA, json: { type: 'boolean', description: 'print a JSON array (without password hashes)' } },
    run: (input) =>
      withAccounts(input, async ({ users }) => {
        const list = users.list(OPERATOR).map(({ password_hash: _hash, avatar: _avatar, ...user }) => user);
        if (input.values.json) process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        else for (const user of list) process.stdout.write(`${user.username}\t${user.role}\t${user.email || '-'}\t${user.id}\t${user.created_at}\n`);
      }),
  },
  {
    name: 'user reset-password',
    summary: 'Sets a new password for a user (generated and printed unless --password-stdin) and ends their sessions.',
    args: ['USERNAME'],
    options: { data: DATA, 'password-stdin': PASSWORD_STDIN },
    notes: [NOTE],
    run: (input) =>
      withAccounts(input, async ({ users, accounts }) => {
        const user = userNamed(accounts, input.args[0]);
        const { password, generated } = await passwordOf(input);
        await users.update(OPERATOR, user.id, { password });
        process.stdout.write(`Set a new password for "${user.username}"; their sessions have ended.\n`);
        if (generated) process.stdout.write(`Password (shown once): ${password}\n`);
      }),
  },
  {
    name: 'user delete',
    summary: 'Deletes a user and ends their sessions (never the last administrator).',
    args: ['USERNAME'],
    options: { data: DATA },
    notes: [NOTE],
    run: (input) =>
      withAccounts(input, async ({ users, accounts }) => {
        const user = await users.delete(OPERATOR, userNamed(accounts, input.args[0]).id);
        process.stdout.write(`Deleted "${user.username}".\n`);
      }),
  },
];

export const tokenCommand: CommandSpec<number> = {
  name: 'token create',
  summary: 'Creates an API token and prints it once (only its hash is stored).',
  options: {
    data: DATA,
    name: { type: 'string', value: 'NAME', required: true, description: 'what the token is for, e.g. "CI"' },
    grant: { type: 'string', value: 'ACTION:RESOURCE', multiple: true, required: true, description: 'an allow grant, e.g. content.read:content:posts or schema.read:*; repeat for more' },
    description: { type: 'string', value: 'TEXT', description: 'a longer description' },
    expires: { type: 'string', value: 'TIME', description: 'an ISO 8601 time after which the token stops working' },
  },
  notes: ['Actions and resources are those of docs/permissions.md; "*" stands for all.', NOTE],
  run: (input) =>
    withAccounts(input, async ({ tokens }) => {
      const grants = input.values.grant as string[];
      const { record, token } = await tokens.create(OPERATOR, {
        name: stringOption(input, 'name') ?? '',
        description: stringOption(input, 'description'),
        permissions: grants.map(parseGrant),
        expires_at: stringOption(input, 'expires') ?? null,
      });
      process.stdout.write(`Created token "${record.name}" (id ${record.id}). The token, shown once:\n${token}\n`);
    }),
};

// The resource keeps its own colons: content.read:content:posts is content.read on content:posts.
function parseGrant(text: string): Grant {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) throw new UsageError(`--grant ${text}: write ACTION:RESOURCE, e.g. content.read:* or content.read:content:posts.`);
  return { effect: 'allow', actions: [text.slice(0, colon)], resources: [text.slice(colon + 1)] };
}

async function withAccounts(input: ParsedInput, work: (accounts: Accounts) => Promise<void>): Promise<number> {
  const config = loadConfig({ flags: { data: stringOption(input, 'data') } });
  const lock = await lockDataRoot(config.dataDir, input.values.data !== undefined ? '--data' : 'CMS_DATA_DIR');
  try {
    const state = await StateStore.open(path.join(config.dataDir, 'state'));
    const accounts = await AccountStore.load(state);
    const sessions = await SessionStore.load(state, { idleMs: config.sessionIdleMs });
    await work({ accounts, users: new UserService(accounts, sessions), tokens: await TokenService.load(state) });
    await sessions.flush();
  } finally {
    await lock.release();
  }
  return 0;
}

function userNamed(accounts: AccountStore, username: string): UserRecord {
  const user = accounts.findUserByUsername(username);
  if (!user) throw notFound(`No user "${username}" (cms user list shows them).`);
  return user;
}

async function passwordOf(input: ParsedInput): Promise<{ password: string; generated: boolean }> {
  if (!input.values['password-stdin']) return { password: randomBytes(15).toString('base64url'), generated: true };
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return { password: Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0], generated: false };
}
