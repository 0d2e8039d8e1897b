import { expect } from 'chai';
import { isPubliclyVisible } from '../../src/domain/model/entry.ts';
import type { ResolvedEntry, StoredEntry } from '../../src/domain/model/entry.ts';
import type { ContentType } from '../../src/domain/model/content-type.ts';
import { expandRelations, omitUnreadableRelations } from '../../src/domain/query/relations.ts';
import type { RelationContext } from '../../src/domain/query/relations.ts';
import type { TypeIndex } from '../../src/domain/query/type-index.ts';
import {
  MAKERS, NOW, PAGES, PRODUCTS, VAULT, buildEntry, buildIndex, buildMakers, buildPages, buildProducts, buildType, buildVault,
} from './query-fixtures.ts';

const MENU = buildType('menu', { page: { type: 'relation', target: 'pages' }, pages: { type: 'relation', target: 'pages', multiple: true } });

function buildWorld(): Map<string, { type: ContentType; index: TypeIndex }> {
  const world = new Map<string, { type: ContentType; index: TypeIndex }>();
  const add = (type: ContentType, entries: StoredEntry[]) => world.set(type.name, { type, index: buildIndex(type, entries) });
  add(PRODUCTS, buildProducts());
  add(MAKERS, buildMakers());
  add(VAULT, buildVault());
  add(PAGES, buildPages());
  add(MENU, [buildEntry('menu', { id: 'n1', title: 'Main', data: { page: 'g1', pages: ['g3', 'g2'] } })]);
  return world;
}

interface Calls {
  lookup: string[];
  visible: string[];
}

function context(world: ReturnType<typeof buildWorld>, options: { canReadVault?: boolean; locale?: string } = {}): { ctx: RelationContext; calls: Calls } {
  const calls: Calls = { lookup: [], visible: [] };
  const ctx: RelationContext = {
    lookup: (name) => {
      calls.lookup.push(name);
      return world.get(name);
    },
    canReadType: (name) => name !== 'vault' || options.canReadVault === true,
    isVisible: (_name, entry) => {
      calls.visible.push(entry.id);
      return options.canReadVault === true || isPubliclyVisible(entry, NOW);
    },
    locale: options.locale,
  };
  return { ctx, calls };
}

function page(world: ReturnType<typeof buildWorld>, typeName: string, ids: string[]): ResolvedEntry[] {
  const index = world.get(typeName)?.index;
  return ids.map((id) => {
    const entry = index?.resolve(id);
    if (!entry) throw new Error(`no ${typeName}/${id}`);
    return entry;
  });
}

describe('relations: omitUnreadableRelations', () => {
  it('removes relation fields whose target the caller cannot read', () => {
    const world = buildWorld();
    const [p01] = omitUnreadableRelations(page(world, 'products', ['p01']), PRODUCTS, (name) => name !== 'vault');
    expect(p01.data).to.not.have.property('secret');
    expect(p01.data.maker).to.equal('m1');
  });

  it('returns the same array when nothing is hidden', () => {
    const world = buildWorld();
    const entries = page(world, 'products', ['p01']);
    expect(omitUnreadableRelations(entries, PRODUCTS, () => true)).to.equal(entries);
    expect(entries[0].data.secret).to.equal('v1');
  });
});

describe('relations: expandRelations', () => {
  it('expands a single relation one level, dropping invisible and dangling ids to null', () => {
    const world = buildWorld();
    const { ctx } = context(world);
    const out = expandRelations(page(world, 'products', ['p01', 'p02', 'p03', 'p04']), PRODUCTS, ['maker'], ctx);
    const m1 = out[0].data.maker as ResolvedEntry;
    expect(m1).to.include({ id: 'm1', title: 'Acme', type: 'makers' });
    expect(m1.data).to.deep.equal({ country: 'Germany', partner: 'm2' });
    expect(out.slice(1).map((e) => e.data.maker)).to.deep.equal([null, null, null]);
    expect(out[0].data).to.not.have.property('secret');
  });

  it('expands multi relations keeping order and dropping drafts and dangling ids', () => {
    const world = buildWorld();
    const { ctx } = context(world);
    const [p01] = expandRelations(page(world, 'products', ['p01']), PRODUCTS, ['related'], ctx);
    const related = p01.data.related as ResolvedEntry[];
    expect(related.map((e) => e.id)).to.deep.equal(['p02', 'p03']);
    expect(related[0].data.related).to.deep.equal(['p01']);
    expect(related[0].data).to.not.have.property('secret');
    expect(p01.data.maker).to.equal('m1');
  });

  it('includes what a token may read: drafts and private types', () => {
    const world = buildWorld();
    const { ctx } = context(world, { canReadVault: true });
    const [p01] = expandRelations(page(world, 'products', ['p01']), PRODUCTS, ['related', 'secret', 'maker'], ctx);
    expect((p01.data.related as ResolvedEntry[]).map((e) => e.id)).to.deep.equal(['p02', 'p10', 'p03']);
    expect((p01.data.secret as ResolvedEntry).data).to.deep.equal({ code: 'xyz' });
    expect((p01.data.maker as ResolvedEntry).data.vault).to.equal('v1');
  });

  it('omits an included relation to a type the caller cannot read', () => {
    const world = buildWorld();
    const { ctx, calls } = context(world);
    const [p01] = expandRelations(page(world, 'products', ['p01']), PRODUCTS, ['secret'], ctx);
    expect(p01.data).to.not.have.property('secret');
    expect(calls.lookup).to.deep.equal([]);
  });

  it('looks each target and id up once per page', () => {
    const world = buildWorld();
    const { ctx, calls } = context(world);
    const entries = page(world, 'products', ['p01', 'p02', 'p03', 'p04', 'p05']);
    expandRelations(entries, PRODUCTS, ['maker', 'related'], ctx);
    expect(calls.lookup.sort()).to.deep.equal(['makers', 'products']);
    expect(calls.visible.sort()).to.deep.equal(['m1', 'm2', 'p01', 'p02', 'p03', 'p10']);
  });

  it('resolves expanded entries in the requested locale', () => {
    const world = buildWorld();
    const { ctx } = context(world, { locale: 'de' });
    const [n1] = expandRelations(page(world, 'menu', ['n1']), MENU, ['page', 'pages'], ctx);
    expect((n1.data.page as ResolvedEntry).title).to.equal('Hallo');
    expect((n1.data.pages as ResolvedEntry[]).map((e) => e.title)).to.deep.equal(['Willkommen', 'Only root']);
  });

  it('gives null and [] when the target type does not exist', () => {
    const world = buildWorld();
    world.delete('pages');
    const { ctx } = context(world);
    const [n1] = expandRelations(page(world, 'menu', ['n1']), MENU, ['page', 'pages'], ctx);
    expect(n1.data.page).to.equal(null);
    expect(n1.data.pages).to.deep.equal([]);
  });

  it('does not change its input entries', () => {
    const world = buildWorld();
    const { ctx } = context(world);
    const entries = page(world, 'products', ['p01']);
    expandRelations(entries, PRODUCTS, ['maker', 'related'], ctx);
    expect(entries[0].data.maker).to.equal('m1');
    expect(entries[0].data.secret).to.equal('v1');
  });
});
