// The local web the web tools fetch from: fixed pages, no internet.
import { createServer, type Server } from 'node:http'

const PAGES: Record<string, [number, string, string | Buffer]> = {
  '/page.html': [200, 'text/html; charset=utf-8', '<!doctype html><html><head><title>Fixture page</title></head><body><h1>Héllo</h1><p>A paragraph with <a href="/plain.txt">a link</a> and <b>bold</b> text.</p><ul><li>one</li><li>two ✓</li></ul><pre>code\n  block</pre><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></body></html>'],
  '/plain.txt': [200, 'text/plain; charset=utf-8', 'plain text\r\nwith CRLF\r\nand ünïcode\n'],
  '/data.json': [200, 'application/json', '{"items":[1,2,3],"name":"fixture"}'],
  '/page.html?second=1': [200, 'text/html', '<html><head><title>Second</title></head><body><article><h2>Article</h2><p>Text &amp; entities &lt;ok&gt; &#x2713;</p></article></body></html>'],
  '/unicode.html': [200, 'text/html; charset=utf-8', '<html><body><p>日本語のテキスト 🙂 Ελληνικά</p><p>\u00a0nbsp\u00a0</p></body></html>'],
  '/big.html': [200, 'text/html', '<html><body>' + Array.from({ length: 4000 }, (_, i) => `<p>Paragraph ${i} ${'words '.repeat(12)}</p>`).join('') + '</body></html>'],
}

export function startServer(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const url = req.url ?? '/'
    if (req.method === 'POST' && url === '/exa/search') {
      let body = ''
      req.on('data', (c) => { body += c })
      req.on('end', () => exa(JSON.parse(body), res))
      return
    }
    if (url === '/redirect') {
      res.writeHead(302, { location: '/page.html' })
      res.end()
      return
    }
    const page = PAGES[url]
    if (page === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found')
      return
    }
    res.writeHead(page[0], { 'content-type': page[1], date: 'Thu, 01 Jan 2026 00:00:00 GMT' })
    res.end(page[2])
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

// A stand-in for Exa's search API (web-search-exa with baseURL pointed here):
// fixed results per query, an empty list, and an error.
function exa(request: { query: string; numResults?: number }, res: import('node:http').ServerResponse): void {
  const q = request.query
  if (q.includes('error')) {
    res.writeHead(500, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: 'stand-in search backend failed on purpose' }))
    return
  }
  const results = q.includes('nothing') ? [] : Array.from({ length: q.includes('many') ? 12 : 3 }, (_, i) => ({
    url: `https://example.com/${encodeURIComponent(q.replace(/\s+/g, '-'))}/${i + 1}`,
    title: i === 1 ? '' : `Result ${i + 1} for ${q} — ünïcode ✓`,
    highlights: i === 2 ? ['', `The third highlight about ${q}.`] : [`Highlight ${i + 1}: ${q} is discussed here.\nSecond line.`],
    ...i === 0 ? { publishedDate: '2025-06-01T00:00:00.000Z' } : {},
  }))
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ results: request.numResults === undefined ? results : results.slice(0, request.numResults) }))
}
