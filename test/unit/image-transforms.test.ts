// The rules of image transformations (domain/media/image-transforms.ts):
// normalization, so equal results share one cache file, and the output box,
// so an image is never enlarged.
import { expect } from 'chai';
import { IMAGE_SIZES, normalizeTransform, outputBox, variantName } from '../../src/domain/media/image-transforms.ts';

describe('image transformations', () => {
  describe('normalizeTransform', () => {
    it('fills in the source format, the fit and the default quality of the format', () => {
      expect(normalizeTransform({ width: 640 }, 'image/jpeg')).to.deep.equal({ width: 640, fit: 'inside', format: 'jpeg', quality: 80 });
      expect(normalizeTransform({ width: 640, format: 'avif' }, 'image/png')).to.deep.equal({ width: 640, fit: 'inside', format: 'avif', quality: 50 });
      expect(normalizeTransform({ width: 640, height: 320 }, 'image/webp')).to.deep.equal({ width: 640, height: 320, fit: 'inside', format: 'webp', quality: 80 });
      expect(normalizeTransform({ width: 640, height: 320, fit: 'cover', quality: 55 }, 'image/webp')).to.deep.equal({ width: 640, height: 320, fit: 'cover', format: 'webp', quality: 55 });
    });

    it('drops what does not change the result: fit without a box, quality of lossless formats', () => {
      expect(normalizeTransform({ width: 640, fit: 'cover' }, 'image/png')).to.deep.equal({ width: 640, fit: 'inside', format: 'png' });
      expect(normalizeTransform({ height: 64, quality: 10 }, 'image/gif')).to.deep.equal({ height: 64, fit: 'inside', format: 'gif' });
      expect(normalizeTransform({ width: 64 }, 'image/apng')).to.deep.equal({ width: 64, fit: 'inside', format: 'png' });
    });

    it('gives undefined (serve the original) when nothing would change, or for a format it cannot read', () => {
      expect(normalizeTransform({}, 'image/png')).to.equal(undefined);
      expect(normalizeTransform({ format: 'png', fit: 'cover', quality: 20 }, 'image/png')).to.equal(undefined);
      expect(normalizeTransform({ format: 'jpeg' }, 'image/jpeg')).to.equal(undefined);
      expect(normalizeTransform({ quality: 40 }, 'image/jpeg')).to.deep.equal({ fit: 'inside', format: 'jpeg', quality: 40 });
      expect(normalizeTransform({ width: 64 }, 'image/svg+xml')).to.equal(undefined);
      expect(normalizeTransform({ width: 64 }, 'application/pdf')).to.equal(undefined);
    });
  });

  describe('variantName', () => {
    it('names the version and every choice, so equal transformations share a name and others do not', () => {
      const name = variantName('1f-abc', { width: 640, fit: 'inside', format: 'webp', quality: 80 });
      expect(name).to.equal('1f-abc_640xauto_inside_q80.webp');
      expect(variantName('1f-abc', { height: 64, fit: 'inside', format: 'png' })).to.equal('1f-abc_autox64_inside_lossless.png');
      expect(variantName('1f-abd', { width: 640, fit: 'inside', format: 'webp', quality: 80 })).not.to.equal(name);
    });
  });

  describe('outputBox', () => {
    const source = { width: 900, height: 300 };

    it('keeps a box the image can fill by shrinking', () => {
      expect(outputBox(source, { width: 640, height: 200, fit: 'cover' })).to.deep.equal({ width: 640, height: 200 });
      expect(outputBox(source, { width: 640, height: 640, fit: 'contain' })).to.deep.equal({ width: 640, height: 640 });
      expect(outputBox(source, { width: 640, fit: 'inside' })).to.deep.equal({ width: 640 });
    });

    it('scales a box the image would have to grow into down to the image, keeping its shape', () => {
      expect(outputBox(source, { width: 640, height: 640, fit: 'cover' })).to.deep.equal({ width: 300, height: 300 });
      expect(outputBox(source, { width: 1280, height: 1280, fit: 'contain' })).to.deep.equal({ width: 900, height: 900 });
      expect(outputBox(source, { width: 1280, height: 1280, fit: 'inside' })).to.deep.equal({ width: 900, height: 300 });
      expect(outputBox(source, { width: 1920, fit: 'inside' })).to.deep.equal({ width: 900 });
      expect(outputBox(source, { height: 400, fit: 'inside' })).to.deep.equal({ height: 300 });
    });
  });

  it('lists sizes in increasing order, from 16 to 4096', () => {
    expect([...IMAGE_SIZES].sort((a, b) => a - b)).to.deep.equal([...IMAGE_SIZES]);
    expect([IMAGE_SIZES[0], IMAGE_SIZES.at(-1)]).to.deep.equal([16, 4096]);
  });
});
