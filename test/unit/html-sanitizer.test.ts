import { expect } from 'chai';
import { sanitizeHtml } from '../../src/domain/model/html-sanitizer.ts';

describe('sanitizeHtml', () => {
  describe('hostile input', () => {
    const cases: Array<[string, string]> = [
      ['<img src=x onerror=alert(1)>', '<img src="x" />'],
      ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
      ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
      ['<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
      ['<a href="&#x6A;avascript&#x3A;alert(1)">x</a>', '<a>x</a>'],
      ['<a href=" java\tscript:alert(1)">x</a>', '<a>x</a>'],
      ['<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
      ['<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', '<a>x</a>'],
      ['<img src="data:image/png;base64,iVBOR">', '<img />'],
      ['<img src="data:image/svg+xml,<svg onload=alert(1)>">', '<img />'],
      ['<svg><script>alert(1)</script></svg>', ''],
      ['<svg onload=alert(1)><circle/></svg>ok', 'ok'],
      ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', ''],
      ['<iframe src="https://evil.example"></iframe>after', 'after'],
      ['<object data="x"></object><embed src="x">', ''],
      ['<script>alert(1)</script>text', 'text'],
      ['<SCRIPT>alert(1)</SCRIPT>text', 'text'],
      ['<style>body{display:none}</style><p>Hi</p>', '<p>Hi</p>'],
      ['<p style="color:red" onclick="x()">Hi</p>', '<p>Hi</p>'],
      ['<a href="https://x.example" onmouseover="alert(1)" style="x">y</a>', '<a href="https://x.example">y</a>'],
      ['<img src="https://x.example/y.png" srcset="javascript:1">', '<img src="https://x.example/y.png" />'],
      ['<blockquote cite="javascript:alert(1)">q</blockquote>', '<blockquote>q</blockquote>'],
      ['<form action="x"><input name=a><button>b</button></form>', 'b'],
      ['<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', ''],
      ['<div><!-- <script>x</script> --><h2>H</h2></div>', '<div><h2>H</h2></div>'],
      ['<p class="evil" id="clobber" data-x="1">t</p>', '<p>t</p>'],
    ];
    for (const [input, expected] of cases) {
      it(`cleans ${JSON.stringify(input)}`, () => {
        expect(sanitizeHtml(input)).to.equal(expected);
      });
    }

    it('never lets a script-capable token through', () => {
      const all = cases.map(([input]) => sanitizeHtml(input)).join('\n').toLowerCase();
      for (const needle of ['<script', 'javascript:', 'vbscript:', 'data:', 'onerror', 'onload', 'onclick', '<iframe', '<svg', 'style=']) {
        expect(all).to.not.include(needle);
      }
    });
  });

  describe('allowed markup', () => {
    it('keeps headings, paragraphs, lists and inline formatting', () => {
      const html = '<h1>T</h1><h3>S</h3><p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <code>c</code><br /></p>'
        + '<ul><li>a</li></ul><ol start="3"><li>b</li></ol><hr />';
      expect(sanitizeHtml(html)).to.equal(html);
    });

    it('keeps http, https, mailto, relative and fragment links', () => {
      const html = '<a href="https://a.example/x?y=1">1</a><a href="http://a.example">2</a>'
        + '<a href="mailto:a@b.example">3</a><a href="/relative/path">4</a><a href="#frag">5</a>';
      expect(sanitizeHtml(html)).to.equal(html);
    });

    it('adds rel="noopener noreferrer" to links opening a new window', () => {
      expect(sanitizeHtml('<a href="https://a.example" target="_blank">l</a>'))
        .to.equal('<a href="https://a.example" target="_blank" rel="noopener noreferrer">l</a>');
    });

    it('keeps images with http(s) or relative sources', () => {
      expect(sanitizeHtml('<img src="https://a.example/p.png" alt="A" width="10" height="5">'))
        .to.equal('<img src="https://a.example/p.png" alt="A" width="10" height="5" />');
      expect(sanitizeHtml('<img src="/media/ws/p.png" alt="">')).to.equal('<img src="/media/ws/p.png" alt="" />');
    });

    it('keeps tables', () => {
      const html = '<table><caption>c</caption><thead><tr><th colspan="2" scope="col">h</th></tr></thead>'
        + '<tbody><tr><td rowspan="2">1</td></tr></tbody></table>';
      expect(sanitizeHtml(html)).to.equal(html);
    });

    it('keeps code blocks with language classes only', () => {
      expect(sanitizeHtml('<pre class="language-js evil"><code class="language-js">x &lt; y</code></pre>'))
        .to.equal('<pre class="language-js"><code class="language-js">x &lt; y</code></pre>');
    });

    it('keeps blockquotes, figures and escaped text', () => {
      const html = '<blockquote cite="https://a.example">q</blockquote><figure><img src="a.png" /><figcaption>c</figcaption></figure>'
        + '<p>a &lt;b&gt; &amp; c</p>';
      expect(sanitizeHtml(html)).to.equal(html);
    });

    it('returns plain text unchanged and empty input as empty', () => {
      expect(sanitizeHtml('just text')).to.equal('just text');
      expect(sanitizeHtml('')).to.equal('');
    });
  });
});
