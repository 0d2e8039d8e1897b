import { expect } from 'chai';
import { displayName, extensionOf, isValidMediaFilename, safeNameParts, uniqueFilename } from '../../src/domain/media/file-names.ts';
import { MEDIA_FILENAME_PATTERN } from '../../src/domain/model/field-values.ts';

describe('media file names', () => {
  it('makes uploaded names lowercase ASCII words joined by hyphens, keeping the extension apart', async () => {
    expect(await safeNameParts('My Photo.PNG')).to.deep.equal({ base: 'my-photo', extension: 'png' });
    expect(await safeNameParts('Über Straße – Café.jpeg')).to.deep.equal({ base: 'ueber-strasse-cafe', extension: 'jpeg' });
    expect(await safeNameParts('report')).to.deep.equal({ base: 'report', extension: undefined });
    expect(await safeNameParts('photo 2024.05.01')).to.deep.equal({ base: 'photo-2024-05-01', extension: undefined });
  });

  it('keeps only the last path segment and drops traversal, NUL and unicode tricks', async () => {
    expect(await safeNameParts('../../etc/passwd.txt')).to.deep.equal({ base: 'passwd', extension: 'txt' });
    expect(await safeNameParts('..\\..\\windows\\evil.png')).to.deep.equal({ base: 'evil', extension: 'png' });
    expect((await safeNameParts('a\u0000b.png')).base).to.equal('a-b');
    expect((await safeNameParts('..%2f..%2fsecret.png')).base).to.equal('2f-2fsecret');
    expect(await safeNameParts('\u202egnp.exe.png')).to.deep.equal({ base: 'gnp-exe', extension: 'png' });
    // Fullwidth dots and solidus fold (NFKC) into the real characters first.
    expect(await safeNameParts('\uff0e\uff0e\uff0fx\uff0epng')).to.deep.equal({ base: 'x', extension: 'png' });
    expect(await safeNameParts('....png')).to.deep.equal({ base: 'file', extension: 'png' });
    expect(await safeNameParts('')).to.deep.equal({ base: 'file', extension: undefined });
  });

  it('cuts long names to at most 100 characters at a hyphen', async () => {
    const { base } = await safeNameParts(`${'word '.repeat(60)}.png`);
    expect(base.length).to.be.at.most(100);
    expect(base).to.match(/^word(-word)*$/);
    const single = (await safeNameParts(`${'a'.repeat(300)}.png`)).base;
    expect(single).to.equal('a'.repeat(100));
  });

  it('produces names that the media field pattern accepts', async () => {
    for (const original of ['My Photo.PNG', '300'.repeat(100) + '.jpg', 'ÆØÅ.gif', '😀.webp']) {
      const { base, extension } = await safeNameParts(original);
      const name = `${base}.${extension}`;
      expect(MEDIA_FILENAME_PATTERN.test(name), name).to.equal(true);
      expect(isValidMediaFilename(name), name).to.equal(true);
    }
  });

  it('finds extensions of 1–5 letters or digits with a letter', () => {
    expect(extensionOf('a.MP4')).to.equal('mp4');
    expect(extensionOf('a.7z')).to.equal('7z');
    expect(extensionOf('a.01')).to.equal(undefined);
    expect(extensionOf('a.markdown')).to.equal(undefined);
    expect(extensionOf('noext')).to.equal(undefined);
  });

  it('validates stored names', () => {
    expect(isValidMediaFilename('photo.png')).to.equal(true);
    for (const bad of ['Photo.png', '../x.png', 'a/b.png', 'a\\b.png', '.png', 'x', 'a..b.png', 'a b.png', `${'a'.repeat(200)}.png`, 'a\u0000.png']) {
      expect(isValidMediaFilename(bad), JSON.stringify(bad)).to.equal(false);
    }
  });

  it('suffixes -2, -3 … until a name is free', async () => {
    const taken = new Set(['a.png', 'a-2.png']);
    expect(await uniqueFilename('a', 'png', (name) => taken.has(name))).to.equal('a-3.png');
    expect(await uniqueFilename('b', 'png', async () => false)).to.equal('b.png');
  });

  it('keeps display names readable but without control or direction marks', () => {
    expect(displayName('  My\u202e Photo\u0000.png ')).to.equal('My Photo.png');
    expect([...displayName('x'.repeat(400))].length).to.equal(255);
  });
});
