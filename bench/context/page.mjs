// The page of bench/context.sh's browser task on 127.0.0.1: a heading, a paragraph, a button that
// counts its clicks and a status line (4 elements). Prints its URL.
import http from 'node:http';

const page = `<!doctype html><html><head><title>Counter</title></head><body>
<h1>Counter</h1><p>Press the button.</p>
<button onclick="document.getElementById('s').textContent='clicked '+(++n)">Count</button>
<p id="s" role="status">not clicked</p><script>let n=0</script></body></html>`;

const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}/`));
