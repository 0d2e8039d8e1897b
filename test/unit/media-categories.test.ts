import { expect } from 'chai';
import { isWithin, movedCategory, parentOf, parseCategory, sortCategories, withAncestors } from '../../src/domain/media/categories.ts';
import { planCategoryDelete, planCategoryRename, renamedCategoryPath, newCategoryPath, listWith } from '../../src/domain/media/category-plans.ts';
import type { MediaRecord } from '../../src/domain/media/media-record.ts';
import { AppError } from '../../src/errors/app-error.ts';

function record(filename: string, category: string): MediaRecord {
  return { filename, name: filename, mime: 'image/png', size: 1, sha256: null, width: 1, height: 1, category, alt: '', title: '', visibility: 'public', uploaded_by: null, uploaded_at: null };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? `${error.code}:${Object.keys(error.fields ?? {}).join(',')}` : 'other';
  }
  return undefined;
}

describe('media categories', () => {
  it('parses paths into the " / " form', () => {
    expect(parseCategory('Brand', 'category')).to.equal('Brand');
    expect(parseCategory('Brand/Logos', 'category')).to.equal('Brand / Logos');
    expect(parseCategory('  Brand  /  Logos / Dark ', 'category')).to.equal('Brand / Logos / Dark');
    expect(parseCategory('   ', 'category')).to.equal('');
  });

  it('rejects empty names, controls, wildcards, backslashes, long names and deep nesting', () => {
    expect(codeOf(() => parseCategory('Brand//Logos', 'category'))).to.equal('validation_failed:category');
    expect(codeOf(() => parseCategory('a\u0000b', 'name'))).to.equal('validation_failed:name');
    expect(codeOf(() => parseCategory('a*', 'name'))).to.equal('validation_failed:name');
    expect(codeOf(() => parseCategory('a\\b', 'name'))).to.equal('validation_failed:name');
    expect(codeOf(() => parseCategory('x'.repeat(101), 'name'))).to.equal('validation_failed:name');
    expect(codeOf(() => parseCategory(Array(11).fill('a').join('/'), 'name'))).to.equal('validation_failed:name');
    expect(codeOf(() => parseCategory('a//b', 'category', 'invalid_request'))).to.equal('invalid_request:category');
  });

  it('knows the tree relations', () => {
    expect(isWithin('Brand / Logos', 'Brand')).to.equal(true);
    expect(isWithin('Brand', 'Brand')).to.equal(true);
    expect(isWithin('Brands', 'Brand')).to.equal(false);
    expect(withAncestors('A / B / C')).to.deep.equal(['A', 'A / B', 'A / B / C']);
    expect(withAncestors('')).to.deep.equal([]);
    expect(parentOf('A / B / C')).to.equal('A / B');
    expect(parentOf('A')).to.equal('');
    expect(movedCategory('A / B / C', 'A / B', 'X')).to.equal('X / C');
  });

  it('sorts parents right before their children', () => {
    expect(sortCategories(['Brands', 'Brand / Logos', 'Brand', 'A', 'Brand / Logos'])).to.deep.equal(['A', 'Brand', 'Brand / Logos', 'Brands']);
  });

  it('plans creating, renaming and deleting', () => {
    const state = { categories: ['Brand', 'Brand / Logos', 'Other'], records: [record('a.png', 'Brand / Logos'), record('b.png', 'Other'), record('c.png', 'Brand')] };
    expect(newCategoryPath(state, 'Icons', 'Brand')).to.equal('Brand / Icons');
    expect(codeOf(() => newCategoryPath(state, 'Icons', 'Nope'))).to.equal('validation_failed:parent');
    expect(listWith(state, 'Brand')).to.equal(undefined);
    expect(listWith(state, 'New / Sub')).to.deep.equal(['Brand', 'Brand / Logos', 'New', 'New / Sub', 'Other']);

    expect(renamedCategoryPath(state, 'Brand / Logos', 'Marks')).to.equal('Brand / Marks');
    expect(renamedCategoryPath(state, 'Brand / Logos', 'Other/Logos')).to.equal('Other / Logos');
    expect(codeOf(() => renamedCategoryPath(state, 'Brand', 'Other'))).to.equal('validation_failed:name');
    expect(codeOf(() => renamedCategoryPath(state, 'Brand', 'Brand/Inner'))).to.equal('validation_failed:name');

    const rename = planCategoryRename(state, 'Brand', 'Company');
    expect(rename.categories).to.deep.equal(['Company', 'Company / Logos', 'Other']);
    expect(rename.put?.map((r) => [r.filename, r.category])).to.deep.equal([['a.png', 'Company / Logos'], ['c.png', 'Company']]);

    const removal = planCategoryDelete(state, 'Brand');
    expect(removal.categories).to.deep.equal(['Other']);
    expect(removal.put?.map((r) => [r.filename, r.category])).to.deep.equal([['a.png', ''], ['c.png', '']]);
  });
});
