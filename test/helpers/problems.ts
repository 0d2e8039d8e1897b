// The skipped files a server lists (GET /problems) and `cms check` finds, in
// one shape, for tests that compare the two or wait for a problem to show.
import { expect } from 'chai';
import { findProblems } from '../../src/cli/check.ts';
import { WorkingFolder } from '../../src/storage/working-folder.ts';
import type { TestServer } from './server.ts';

/** One listed problem: the file, the field to blame when there is one, a sentence. */
export interface Problem {
  path: string;
  field?: string;
  message: string;
}

/** GET /api/v1/workspaces/{workspace}/problems with `token`; fails the test unless it answers 200. */
export async function listedProblems(server: TestServer, workspace: string, token: string): Promise<Problem[]> {
  const response = await server.request('GET', `/api/v1/workspaces/${workspace}/problems`, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data as Problem[];
}

/** What `cms check` finds in the content repo `repo`, shaped as the server lists it. */
export async function checkedProblems(repo: string): Promise<Problem[]> {
  const folder = WorkingFolder.locate(repo);
  if (typeof folder === 'string') throw new Error(folder);
  return (await findProblems(folder)).map(({ path, field, message }) => ({ path, ...(field === undefined ? {} : { field }), message }));
}
