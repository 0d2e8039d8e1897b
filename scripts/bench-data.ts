// The data root of `npm run bench`: 10,000 articles related to 1,000 authors
// in the default workspace, written as entry files and committed in ONE commit
// straight through ContentRepo (going through the API would take minutes and
// measure writes, not reads). Values come from a fixed pseudo-random sequence
// so every run measures the same content.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import type { StoredEntry } from '../src/domain/model/entry.ts';
import { entriesDir } from '../src/domain/model/entry-paths.ts';
import { entryToFiles } from '../src/domain/model/entry-to-files.ts';
import type { ContentType } from '../src/domain/model/content-type.ts';
import { typeFilePath, typeToYaml } from '../src/domain/model/type-files.ts';
import { normalizeContentTypeInput } from '../src/domain/model/type-input.ts';
import { ContentRepo, type FileChange } from '../src/storage/content-repo.ts';

export const WORKSPACE = 'default';
export const CATEGORIES = ['news', 'guide', 'review', 'opinion'];

/** What the load cases need to know about the generated content. */
export interface BenchData {
  articles: number;
  authors: number;
  /** Words that occur in titles and summaries, for `q` requests. */
  words: string[];
  /** Slug of the i-th article. */
  articleSlug(i: number): string;
}

// Through the same normalization the server applies to type files, so the defaults are the server's own.
function buildType(name: string, label: string, fields: ContentType['fields']): ContentType {
  return normalizeContentTypeInput({ name, label, fields }, { mode: 'create', typeExists: (other) => other === 'articles' || other === 'authors' });
}

export const ARTICLES_TYPE = buildType('articles', 'Articles', {
  summary: { type: 'text' },
  body: { type: 'markdown' },
  price: { type: 'number' },
  category: { type: 'select', options: CATEGORIES.map((value) => ({ value, label: value })) },
  release: { type: 'date' },
  author: { type: 'relation', target: 'authors' },
});

export const AUTHORS_TYPE = buildType('authors', 'Authors', {
  bio: { type: 'text' },
  country: { type: 'select', options: ['de', 'fr', 'jp', 'us'].map((value) => ({ value, label: value })) },
});

// A linear congruential generator: deterministic, so runs are comparable.
function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qui', 'dor', 'len', 'mar', 'tos'];
const WORDS = Array.from({ length: 3_000 }, (_, i) => SYLLABLES[i % 15] + SYLLABLES[Math.floor(i / 15) % 15] + SYLLABLES[Math.floor(i / 225) % 15]);

function articleId(i: number): string {
  return `ar${String(i).padStart(6, '0')}`;
}

function authorId(i: number): string {
  return `au${String(i).padStart(6, '0')}`;
}

function baseEntry(type: string, id: string, slug: string, i: number, title: string): StoredEntry {
  const created = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
  // One in ten is a draft, so visibility filtering is part of every list.
  const status = i % 10 === 9 ? 'draft' : 'published';
  return {
    id, slug, type, status, title,
    published_at: status === 'published' ? created : null, created_at: created, updated_at: created, data: {}, translations: {},
  };
}

/** Writes the workspace, both types and every entry file as one commit in `{dataDir}/content`. */
export async function buildDataRoot(dataDir: string, counts: { articles: number; authors: number }): Promise<BenchData> {
  const random = createRandom(42);
  const words = (count: number) => Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const now = new Date().toISOString();
  const changes: FileChange[] = [
    { path: `${WORKSPACE}/workspace.yaml`, content: YAML.stringify({ label: 'Default', archived: false, created_at: now, updated_at: now, types: ['articles', 'authors'] }) },
    { path: typeFilePath(WORKSPACE, 'articles'), content: typeToYaml(ARTICLES_TYPE) },
    { path: typeFilePath(WORKSPACE, 'authors'), content: typeToYaml(AUTHORS_TYPE) },
  ];
  const add = (entry: StoredEntry, type: ContentType) => {
    for (const [name, text] of entryToFiles(entry, type)) changes.push({ path: `${entriesDir(WORKSPACE, type.name)}/${name}`, content: text });
  };
  for (let i = 0; i < counts.authors; i += 1) {
    const entry = baseEntry('authors', authorId(i), `author-${i}`, i, `${words(2)} ${i}`);
    entry.data = { bio: words(20), country: ['de', 'fr', 'jp', 'us'][i % 4] };
    add(entry, AUTHORS_TYPE);
  }
  for (let i = 0; i < counts.articles; i += 1) {
    const entry = baseEntry('articles', articleId(i), `article-${i}`, i, `${words(4)} ${i}`);
    entry.data = {
      summary: words(12),
      body: `# ${words(4)}\n\n${words(60)} **${words(2)}** [${words(2)}](https://example.com/${i})\n\n- ${words(5)}\n- ${words(5)}\n`,
      price: Math.floor(random() * 1_000),
      category: CATEGORIES[i % CATEGORIES.length],
      release: new Date(Date.UTC(2021, 0, 1 + (i % 900))).toISOString().slice(0, 10),
      author: authorId(Math.floor(random() * counts.authors)),
    };
    add(entry, ARTICLES_TYPE);
  }
  const content = path.join(dataDir, 'content');
  await mkdir(content, { recursive: true });
  const repo = await ContentRepo.open(content);
  const author = { name: 'Bench', email: 'bench@example.com' };
  await repo.serialize(() => repo.commitChanges({ changes, message: `Seed ${counts.articles} articles and ${counts.authors} authors`, author }));
  await repo.close();
  return { ...counts, words: WORDS, articleSlug: (i) => `article-${i}` };
}
