/**
 * Stored-XSS vectors for the course description (OWASP XSS Filter Evasion Cheat Sheet, PortSwigger
 * XSS cheat sheet, Quill 2.0.3 formula/video export advisory). Each one, if it ran, would set
 * `window.__xss`, log XSS_MARKER, or open a dialog; e2e/xss.spec.ts watches for all three and
 * apps/server/src/test/security/stored-xss.test.ts checks what the server keeps.
 */
export const XSS_MARKER = 'XSS_MARKER'
const JS = `window.__xss=1;console.log('${XSS_MARKER}');alert(1)`
const JS_ENC = [...JS].map((c) => `&#${c.charCodeAt(0)};`).join('')
const JS_HEX = [...JS].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')
const B64_HTML = Buffer.from(`<script>${JS}</script>`).toString('base64')

export const XSS_PAYLOADS: readonly string[] = [
  // Plain script and its spellings
  `<script>${JS}</script>`,
  `<SCRIPT>${JS}</SCRIPT>`,
  `<scr<script>ipt>${JS}</scr</script>ipt>`,
  `<script src="data:text/javascript,${encodeURIComponent(JS)}"></script>`,
  `<script/xss>${JS}</script>`,
  `<<script>${JS};//<</script>`,
  `<script>/*</script><img src=x onerror="${JS}">*/</script>`,
  // Image and media handlers
  `<img src=x onerror="${JS}">`,
  `<IMG SRC=x OnErRoR="${JS}">`,
  `<img src="x" onerror=${JS.replace(/'/g, '&#39;')}>`,
  `<img/src="x"/onerror="${JS}">`,
  `<img src=x onerror\t="${JS}">`,
  `<img src="https://example.test/a.png" onload="${JS}">`,
  `<img src="javascript:${JS}">`,
  `<img src="data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="${JS}"/>`).toString('base64')}">`,
  `<img src="x` + '`' + `onerror="${JS}">`,
  `<image src=x onerror="${JS}">`,
  `<video><source onerror="${JS}"></video>`,
  `<audio src=x onerror="${JS}"></audio>`,
  `<body onload="${JS}">`,
  `<input autofocus onfocus="${JS}">`,
  `<details open ontoggle="${JS}">`,
  `<marquee onstart="${JS}">x</marquee>`,
  `<p onmouseover="${JS}" style="position:fixed;inset:0">hover</p>`,
  // SVG and MathML
  `<svg onload="${JS}">`,
  `<svg><script>${JS}</script></svg>`,
  `<svg><animate onbegin="${JS}" attributeName="x" dur="1s">`,
  `<svg><a xlink:href="javascript:${JS}"><text x="20" y="20">click</text></a></svg>`,
  `<svg><foreignObject><iframe srcdoc="<script>${JS}</script>"></iframe></foreignObject></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${JS}">`,
  // Links with dangerous protocols
  `<a href="javascript:${JS}">js</a>`,
  `<a href="JaVaScRiPt:${JS}">js case</a>`,
  `<a href=" javascript:${JS}">js space</a>`,
  `<a href="java&#x09;script:${JS}">js tab entity</a>`,
  `<a href="java\nscript:${JS}">js newline</a>`,
  `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${JS_ENC}">js decimal</a>`,
  `<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;${JS_HEX}">js hex</a>`,
  `<a href="vbscript:msgbox(1)">vbs</a>`,
  `<a href="data:text/html;base64,${B64_HTML}">data html</a>`,
  `<a href="data:text/html,<script>${JS}</script>">data html plain</a>`,
  `<a href="//evil.example/x">protocol relative</a>`,
  `<a href="javascript&colon;${JS}">colon entity</a>`,
  `<a href="#" onclick="${JS}">onclick</a>`,
  // Frames, objects, forms, meta, base
  `<iframe src="javascript:${JS}"></iframe>`,
  `<iframe srcdoc="<script>${JS}</script>"></iframe>`,
  `<object data="data:text/html;base64,${B64_HTML}"></object>`,
  `<embed src="data:text/html;base64,${B64_HTML}">`,
  `<form action="javascript:${JS}"><button>go</button></form>`,
  `<form><button formaction="javascript:${JS}">go</button></form>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${JS}">`,
  `<base href="javascript:${JS}//">`,
  `<link rel="stylesheet" href="javascript:${JS}">`,
  // Styles
  `<style>@import 'javascript:${JS}';</style>`,
  `<div style="background:url(javascript:${JS})">bg</div>`,
  `<p style="x:expression(${JS})">expr</p>`,
  // Quill formats the toolbar does not offer (STACK.md advisory)
  `<span class="ql-formula" data-value="x" onmouseover="${JS}">f</span>`,
  `<span class="ql-formula" data-value="&lt;img src=x onerror=&quot;${JS}&quot;&gt;"></span>`,
  `<iframe class="ql-video" frameborder="0" allowfullscreen="true" src="javascript:${JS}"></iframe>`,
  `<iframe class="ql-video" src="data:text/html;base64,${B64_HTML}"></iframe>`,
  // Parser confusion
  `<noscript><p title="</noscript><img src=x onerror=&quot;${JS}&quot;>"></noscript>`,
  `<textarea></textarea><img src=x onerror="${JS}">`,
  `<title><img src=x onerror="${JS}"></title>`,
  `<!--<img src="--><img src=x onerror="${JS}">`,
  `<![CDATA[><img src=x onerror="${JS}">]]>`,
  `<template><img src=x onerror="${JS}"></template>`,
  `"><img src=x onerror="${JS}">`,
  `'><script>${JS}</script>`,
  `<p>ok</p><xss onpointerenter="${JS}">custom element</xss>`,
]
