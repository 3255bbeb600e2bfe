import { describe, expect, it } from 'vitest'
import { sanitizeDescription } from './course-description.sanitizer'

const A = (href: string, text = 'x') =>
  `<a target="_blank" rel="noopener noreferrer nofollow" href="${href}">${text}</a>`
const BARE_A = (text = 'x') => `<a target="_blank" rel="noopener noreferrer nofollow">${text}</a>`
const PNG = 'data:image/png;base64,iVBORw0KGgo='

describe('sanitizeDescription removes what the toolbar cannot produce', () => {
  it.each([
    ['script element and its content', '<p>hi<script>alert(1)</script></p>', '<p>hi</p>'],
    ['script at top level', '<script src="https://evil.example/x.js"></script>ok', 'ok'],
    [
      'onerror on an image',
      '<img src="https://img.example/a.png" onerror="alert(1)">',
      '<img src="https://img.example/a.png" />',
    ],
    ['onclick on a paragraph', '<p onclick="alert(1)">p</p>', '<p>p</p>'],
    ['onmouseover on a link', '<a href="https://e.example" onmouseover="x()">l</a>', A('https://e.example', 'l')],
    ['javascript: link', '<a href="javascript:alert(1)">x</a>', BARE_A()],
    ['javascript: link with case and spaces', '<a href="  JaVaScRiPt:alert(1)">x</a>', BARE_A()],
    ['javascript: link with an entity', '<a href="jav&#x09;ascript:alert(1)">x</a>', BARE_A()],
    ['data:text/html link', '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', BARE_A()],
    ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', BARE_A()],
    ['protocol-relative link', '<a href="//evil.example">x</a>', BARE_A()],
    ['iframe', '<iframe src="https://evil.example"></iframe><p>after</p>', '<p>after</p>'],
    ['svg with script', '<svg onload="alert(1)"><script>alert(1)</script></svg>', ''],
    ['svg image as data URL', '<img src="data:image/svg+xml;base64,PHN2Zz4=">', ''],
    ['html as an image data URL', '<img src="data:text/html;base64,PHNjcmlwdD4=">', ''],
    ['javascript: image', '<img src="javascript:alert(1)">', ''],
    ['style attribute', '<p style="background:url(javascript:alert(1))">s</p>', '<p>s</p>'],
    ['style element', '<style>body{display:none}</style><p>s</p>', '<p>s</p>'],
    ['unknown class', '<p class="evil">s</p>', '<p>s</p>'],
    ['object and embed', '<object data="x.swf"></object><embed src="x.swf">t', 't'],
    ['form and input', '<form action="https://evil.example"><input name="a"></form>t', 't'],
    ['video (Quill advisory)', '<video src="https://v.example/a.mp4"></video>t', 't'],
    ['formula markup (Quill advisory)', '<span class="ql-formula" data-value="x">x</span>', 'x'],
    ['math with xlink', '<math><mi xlink:href="javascript:alert(1)">m</mi></math>', 'm'],
    ['meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example">t', 't'],
    ['base tag', '<base href="https://evil.example/">t', 't'],
    [
      'target and rel from the author',
      '<a href="https://e.example" target="_self" rel="opener">x</a>',
      A('https://e.example'),
    ],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeDescription(input)).toBe(expected)
  })
})

describe('sanitizeDescription keeps the toolbar formatting', () => {
  it.each([
    ['headers 1 to 3', '<h1>a</h1><h2>b</h2><h3>c</h3>'],
    ['paragraph and break', '<p>a<br />b</p>'],
    ['bold, italic, underline, strike', '<p><strong>b</strong><em>i</em><u>u</u><s>s</s></p>'],
    ['b, i and strike spellings', '<p><b>b</b><i>i</i><strike>s</strike></p>'],
    ['ordered and bullet lists, nested', '<ol><li>a<ul><li>b</li></ul></li></ol>'],
    ['Quill list indent classes', '<ol><li class="ql-indent-1">a</li></ol>'],
    ['blockquote', '<blockquote>q</blockquote>'],
    ['code block and inline code', '<pre>x = 1\ny = 2</pre><p><code>c</code></p>'],
    ['http and https links', `${A('http://e.example/a?b=1&amp;c=2')}${A('https://e.example')}`],
    ['mailto and tel links', `${A('mailto:someone@example.com')}${A('tel:+15551234')}`],
    ['http image', '<img src="https://img.example/a.png" alt="A" />'],
    ['png data image', `<img src="${PNG}" />`],
    [
      'gif, jpeg, bmp and icon data images',
      ['gif', 'jpeg', 'bmp', 'x-icon'].map((t) => `<img src="data:image/${t};base64,AAAA" />`).join(''),
    ],
  ])('%s', (_name, html) => {
    expect(sanitizeDescription(html)).toBe(html)
  })
})
