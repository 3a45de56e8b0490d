// nginx.mjs: runs a real nginx (Debian's) on loopback ports with sites made
// from the shipped templates in deploy/nginx/, edited the way a self-hoster
// would: our ports, a throwaway self-signed certificate, owared's upstream.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const NGINX = process.env.NGINX || '/usr/sbin/nginx';

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
  });
}

function waitPort(p, ms = 5000) {
  const until = Date.now() + ms;
  return new Promise((res, rej) => {
    const attempt = () => {
      const s = connect(p, '127.0.0.1');
      s.once('connect', () => { s.destroy(); res(); });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > until) rej(new Error('nginx did not listen on ' + p));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

// The domain each template is written for.
const DOMAIN = {
  'oware-rooms.conf': 'oware.example.org',
  'oware-rooms-prefix.conf': 'example.org',
  'oware-rooms-cluster.conf': 'oware.example.org',
};

// The cluster site's upstream lists its servers as `server HOST:PORT
// OPTIONS;` lines: the self-hoster writes one line per owared, keeping the
// template's options (max_fails, fail_timeout).
const SERVER_LINE = /^(\s*)server 127\.0\.0\.1:\d+( [^;\n]*)?;\n/gm;
function clusterServers(s, ports) {
  const lines = [...s.matchAll(SERVER_LINE)];
  if (lines.length < 2) throw new Error('oware-rooms-cluster.conf no longer lists its servers as this test expects');
  const [indent, options] = [lines[0][1], lines[0][2] || ''];
  let first = true;
  return s.replace(SERVER_LINE, () => {
    if (!first) return '';
    first = false;
    return ports.map((p) => `${indent}server 127.0.0.1:${p}${options};\n`).join('');
  });
}

function site(template, dir, { http, https, upstream, rename }) {
  const domain = DOMAIN[template];
  let s = readFileSync(join(ROOT, 'deploy/nginx', template), 'utf8');
  // upstream: one owared's port, or (the cluster site) a list of them.
  const ports = [upstream].flat();
  if (Array.isArray(upstream)) s = clusterServers(s, ports);
  s = s.replace(/^\s*listen \[::\].*$/gm, '')
    .replace(/listen 80;/g, `listen 127.0.0.1:${http};`)
    .replace(/listen 443 ssl http2;/g, `listen 127.0.0.1:${https} ssl http2;`)
    .replaceAll(`/etc/letsencrypt/live/${domain}/fullchain.pem`, join(dir, 'cert.pem'))
    .replaceAll(`/etc/letsencrypt/live/${domain}/privkey.pem`, join(dir, 'key.pem'))
    .replaceAll('root /var/www/html;', `root ${dir};`)
    .replace(/server 127\.0\.0\.1:8080;/g, `server 127.0.0.1:${ports[0]};`);
  if (rename) s = s.replace(/\boware_rooms(_prefix)?\b/g, rename);
  if (!ports.every((p) => s.includes(`127.0.0.1:${p}`)) || !s.includes(join(dir, 'cert.pem')))
    throw new Error(`${template} no longer has the placeholders this test edits`);
  return s;
}

// Starts nginx with one server pair (http + https) per entry of sites:
// {template, upstream (a port, or a list of ports for the cluster site),
// rename?}. The access log (dir/logs/access.log) has one line a request:
// `URI UPSTREAM STATUS`, UPSTREAM the owared (or owareds, tried in turn)
// that answered. Resolves with {sites: [{http, https}], cert (PEM text),
// dir, stop()}.
export async function startNginx(sites) {
  const dir = mkdtempSync(join(tmpdir(), 'oware-nginx-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) mkdirSync(join(dir, d));
  const ports = [];
  const includes = [];
  for (let i = 0; i < sites.length; i++) {
    const p = { http: await freePort(), https: await freePort() };
    ports.push(p);
    writeFileSync(join(dir, `site${i}.conf`), site(sites[i].template, dir, { ...p, ...sites[i] }));
    includes.push(`  include ${dir}/site${i}.conf;`);
  }
  // As root, nginx's workers would drop to "nobody", who cannot read the
  // temporary folder: keep them as the user running the test.
  const asRoot = process.getuid && process.getuid() === 0 ? 'user root;\n' : '';
  writeFileSync(join(dir, 'nginx.conf'), `${asRoot}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 256; }
http {
  log_format upstreams '$request_uri $upstream_addr $status';
  access_log ${dir}/logs/access.log upstreams;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${includes.join('\n')}
}
`);
  execFileSync(NGINX, ['-t', '-q', '-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'inherit' });
  const proc = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'inherit' });
  const exited = new Promise((r) => proc.once('exit', r));
  for (const p of ports) { await waitPort(p.http); await waitPort(p.https); }
  return {
    sites: ports,
    dir,
    cert: readFileSync(join(dir, 'cert.pem')),
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM'); // fast: open WebSockets would hold SIGQUIT
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
