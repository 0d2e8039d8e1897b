import { expect } from 'chai';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { inspectImage, isImageProcessingAvailable, makeThumbnail } from '../../src/domain/media/images.ts';
import { categoriesFromYaml, hasThumbnail, recordFromYaml, recordToYaml, type MediaRecord } from '../../src/domain/media/media-record.ts';
import { contentTypeOf, extensionFor, extensionsOf, resolveAllowedTypes, sniffMediaType } from '../../src/domain/media/media-types.ts';
import { AppError } from '../../src/errors/app-error.ts';

function source(bytes: Uint8Array) {
  const stream = () => new Readable({
    read() {
      this.push(Buffer.from(bytes));
      this.push(null);
    },
  });
  return { head: bytes.subarray(0, 64 * 1024), stream: async () => stream() };
}

async function sniff(bytes: Uint8Array | string, extension?: string) {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return (await sniffMediaType(source(buffer), extension))?.mime;
}

describe('media types', () => {
  it('sniffs images, PDF and archives from their bytes', async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } }).png().toBuffer();
    const jpeg = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } }).jpeg().toBuffer();
    expect(await sniff(png, 'png')).to.equal('image/png');
    expect(await sniff(jpeg)).to.equal('image/jpeg');
    expect(await sniff('%PDF-1.7\n%%EOF\n', 'pdf')).to.equal('application/pdf');
    expect(await sniff(Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]))).to.equal('application/zip');
  });

  it('recognises SVG by its root element, also after a prologue', async () => {
    expect(await sniff('<svg xmlns="http://www.w3.org/2000/svg"/>')).to.equal('image/svg+xml');
    expect(await sniff('\ufeff<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg>')).to.equal('image/svg+xml');
    expect(await sniff('<?xml version="1.0"?><note/>')).to.equal(undefined);
  });

  it('treats UTF-8 without control characters as text, typed by extension', async () => {
    expect(await sniff('hello\nworld', 'txt')).to.equal('text/plain');
    expect(await sniff('# Title', 'md')).to.equal('text/markdown');
    expect(await sniff('a,b\n1,2', 'csv')).to.equal('text/csv');
    expect(await sniff('no extension')).to.equal('text/plain');
    expect(await sniff(Buffer.from([0x68, 0x00, 0x69]))).to.equal(undefined);
    expect(await sniff(Buffer.from([0xff, 0xfe, 0xfd, 0x41]))).to.equal(undefined);
  });

  it('rejects an extension that does not match the bytes', async () => {
    const text = await sniffMediaType(source(Buffer.from('not an image')), 'png');
    expect(text?.mime).to.equal('text/plain');
    try {
      extensionFor(text!, 'png', 'fake.png');
      expect.fail('expected an error');
    } catch (error) {
      expect(error).to.be.instanceOf(AppError);
      expect((error as AppError).code).to.equal('file_type_not_allowed');
    }
    expect(extensionFor(text!, undefined, 'notes')).to.equal('txt');
    expect(extensionsOf('image/jpeg')).to.deep.equal(['jpg', 'jpeg']);
  });

  it('resolves the allow-list from groups and MIME types', () => {
    const allowed = resolveAllowedTypes(['pdf', 'image/png']);
    expect([...allowed].sort()).to.deep.equal(['application/pdf', 'image/png']);
    expect(resolveAllowedTypes(['image']).has('image/svg+xml')).to.equal(true);
    expect(() => resolveAllowedTypes(['application/x-msdownload'])).to.throw(/CMS_MEDIA_TYPES/);
  });

  it('serves text as UTF-8', () => {
    expect(contentTypeOf('text/plain')).to.equal('text/plain; charset=utf-8');
    expect(contentTypeOf('image/svg+xml')).to.equal('image/svg+xml');
  });
});

describe('media images', () => {
  it('probes sharp', async () => {
    expect(await isImageProcessingAvailable()).to.equal(true);
  });

  it('reads dimensions and makes a thumbnail of at most 400 px in the same format', async () => {
    const jpeg = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#123456' } }).jpeg().toBuffer();
    const facts = await inspectImage(jpeg, 'image/jpeg');
    expect(facts.width).to.equal(1200);
    expect(facts.height).to.equal(600);
    const thumb = await sharp(facts.thumbnail!).metadata();
    expect([thumb.format, thumb.width, thumb.height]).to.deep.equal(['jpeg', 400, 200]);
  });

  it('never enlarges small images and applies EXIF orientation to the reported size', async () => {
    const rotated = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#000' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const facts = await inspectImage(rotated, 'image/jpeg');
    expect([facts.width, facts.height]).to.deep.equal([20, 40]);
    const thumb = await sharp(facts.thumbnail!).metadata();
    expect([thumb.width, thumb.height]).to.deep.equal([20, 40]);
  });

  it('gives null dimensions and no thumbnail for corrupt or truncated images', async () => {
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#abcdef' } }).png().toBuffer();
    const truncated = png.subarray(0, Math.floor(png.length / 2));
    expect(await inspectImage(truncated, 'image/png')).to.deep.equal({ width: null, height: null, thumbnail: undefined });
    expect(await inspectImage(Buffer.from('garbage'), 'image/png')).to.deep.equal({ width: null, height: null, thumbnail: undefined });
    expect(await makeThumbnail(truncated, 'image/png')).to.equal(undefined);
  });

  it('reads SVG dimensions without a thumbnail', async () => {
    const facts = await inspectImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="10"></svg>'), 'image/svg+xml');
    expect(facts).to.deep.equal({ width: 30, height: 10, thumbnail: undefined });
  });
});

describe('media records', () => {
  const record: MediaRecord = {
    filename: 'a.png', name: 'A.png', mime: 'image/png', size: 10, sha256: 'ab'.repeat(32), width: 2, height: 3, category: 'Brand / Logos',
    alt: 'Alt', title: 'Title', visibility: 'private', uploaded_by: 'u1', uploaded_at: '2024-01-02T03:04:05.000Z',
  };

  it('round-trips through YAML without repeating the file name', () => {
    const yaml = recordToYaml(record);
    expect(yaml).not.to.include('filename');
    expect(recordFromYaml('a.png', yaml)).to.deep.equal(record);
  });

  it('leaves out a size it does not know (0: no upload is empty) rather than claiming 0 bytes', () => {
    const yaml = recordToYaml({ ...record, size: 0 });
    expect(yaml).not.to.match(/^size:/m);
    expect(recordFromYaml('a.png', yaml)).to.deep.equal({ ...record, size: 0 });
  });

  it('reads hand-written files leniently and rejects unusable ones', () => {
    expect(recordFromYaml('b.pdf', 'mime: application/pdf\ncategory: Brand/Logos\n')).to.deep.include({ name: 'b.pdf', size: 0, width: null, category: 'Brand / Logos', visibility: 'public', uploaded_at: null, sha256: null });
    expect(recordFromYaml('b.pdf', `sha256: ${'AB'.repeat(32)}\n`).sha256, 'upper case is read as lower case').to.equal('ab'.repeat(32));
    expect(() => recordFromYaml('b.pdf', 'sha256: abc\n')).to.throw(/sha256/);
    expect(() => recordFromYaml('b.pdf', 'visibility: secret\n')).to.throw(/visibility/);
    expect(() => recordFromYaml('b.pdf', '- a\n')).to.throw(/mapping/);
    expect(() => recordFromYaml('b.pdf', 'width: -3\n')).to.throw(/width/);
    expect(categoriesFromYaml('- A\n- 3\n- A/B\n- "bad*"\n')).to.deep.equal(['A', 'A / B']);
  });

  it('has a thumbnail only for raster images with a size', () => {
    expect(hasThumbnail(record)).to.equal(true);
    expect(hasThumbnail({ ...record, width: null })).to.equal(false);
    expect(hasThumbnail({ ...record, mime: 'image/svg+xml' })).to.equal(false);
  });
});
