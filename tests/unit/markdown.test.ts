import { describe, expect, it } from 'vitest'
import { plainCommentHtml, renderAndSanitise, renderCommentHtml } from '../../server/services/markdown'

describe('the comment renderer', () => {
  it.each([
    ['hello *world* **b** `c`', '<p>hello <em>world</em> <strong>b</strong> <code>c</code></p>'],
    ['line1\nline2', '<p>line1<br />\nline2</p>'],
    ['> quote\n\n- a\n- b\n\n1. one', '<blockquote>\n<p>quote</p>\n</blockquote>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<ol>\n<li>one</li>\n</ol>'],
    ['```\ncode <b>\n```', '<pre><code>code &lt;b&gt;\n</code></pre>'],
    ['[ok](https://example.com/a?b=1&c=2)', '<p><a href="https://example.com/a?b=1&amp;c=2" rel="nofollow ugc noopener">ok</a></p>'],
    ['[x](http://a.example "title")', '<p><a href="http://a.example" rel="nofollow ugc noopener">x</a></p>'],
    ['[m](mailto:a@b.example)', '<p><a href="mailto:a@b.example" rel="nofollow ugc noopener">m</a></p>'],
    ['see https://example.com now', '<p>see <a href="https://example.com" rel="nofollow ugc noopener">https://example.com</a> now</p>'],
  ])('renders %j', (body, html) => {
    expect(renderCommentHtml(body)).toBe(html)
  })

  it.each([
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['<b>raw</b> <img src=x onerror=alert(1)>', '<p>&lt;b&gt;raw&lt;/b&gt; &lt;img src=x onerror=alert(1)&gt;</p>'],
    ['<a href="javascript:x">y</a>', '<p>&lt;a href="javascript:x"&gt;y&lt;/a&gt;</p>'],
    ['[x](javascript:alert(1))', '<p>[x](javascript:alert(1))</p>'],
    ['[x](JAVASCRIPT:alert(1))', '<p>[x](JAVASCRIPT:alert(1))</p>'],
    ['[d](data:text/html;base64,PHNjcmlwdD4=)', '<p>[d](data:text/html;base64,PHNjcmlwdD4=)</p>'],
    ['[v](vbscript:x)', '<p>[v](vbscript:x)</p>'],
    ['[rel](/local/path)', '<p>[rel](/local/path)</p>'],
    ['[p](//evil.example/x)', '<p>[p](//evil.example/x)</p>'],
    ['![i](http://example.com/a.png)', '<p>!<a href="http://example.com/a.png" rel="nofollow ugc noopener">i</a></p>'],
    ['# heading\n\n---', '<p># heading</p>\n<p>---</p>'],
  ])('neutralises %j', (body, html) => {
    expect(renderCommentHtml(body)).toBe(html)
  })

  it('makes plain text directly exactly as the full path does, and leaves everything else to it', () => {
    expect(plainCommentHtml('It does, and this is plain.\nA second line.\n\nA paragraph (Ça va!) 12')).toBe('<p>It does, and this is plain.<br />\nA second line.</p>\n<p>A paragraph (Ça va!) 12</p>')
    for (const body of ['- a list', '1. one', 'www.example.com', 'see example.com', 'a  \nb', ' lead', '*em*', 'a_b_', 'a@b.example', 'x\r\ny', '', '\n\na']) {
      expect(plainCommentHtml(body)).toBeUndefined()
    }
    // Random bodies from letters, digits and every character Markdown or an autolink acts on: whenever the direct path answers, it agrees.
    const alphabet = ['a', 'b', 'E', 'é', 'ß', '1', '2', ' ', ' ', '\n', '.', ',', ';', '!', '?', '\'', '(', ')', '-', ':', '/', '@', '*', '_', '#', '>', '<', '&', '"', '`', '[', ']', 'w', 'c', 'o', 'm', 'h', 't', 'p', 's', '~', '|', '\\', '=', '+']
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    let direct = 0
    for (let i = 0; i < 20_000; i++) {
      const body = Array.from({ length: 1 + Math.floor(random() * 24) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')
      const plain = plainCommentHtml(body)
      if (plain === undefined) continue
      direct++
      expect(plain, JSON.stringify(body)).toBe(renderAndSanitise(body))
    }
    expect(direct).toBeGreaterThan(200)
  })
})
