#!/usr/bin/env python3
"""Opens a compatibility report in headless Chromium, offline, and checks
what a reader sees (ctest `report-chromium`, test/report/run.sh):

- the page loads nothing from outside the file (every request is watched;
  the network is switched off);
- nothing overflows sideways at 1280 px; the processors' summary is above
  the filter box, which is above the binaries;
- binaries with failures come first and are open, the others collapsed;
- kernels show demangled, the mangled name on hover (title);
- each processor's bar is filled in proportion to its kernels compiled,
  measured on a screenshot of the table (green pixels vs red);
- the filter box hides what does not match and opens what does; `#filter=`
  in the address fills it.

Talks to Chromium over --remote-debugging-pipe (DevTools protocol, JSON
messages separated by NUL on file descriptors 3 and 4).
Usage: check-report.py CHROMIUM REPORT.html SCREENSHOT.png EXPECT_FILTER
(EXPECT_FILTER: a word that names kernels in some binaries, not all).
"""

import base64
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib


class DevTools:
    def __init__(self, chromium, profile):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():
            # Copies first: the pipes may already be 3 and 4, and dup2 onto
            # the same number would keep them close-on-exec.
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            [chromium, '--headless', '--no-sandbox', '--disable-gpu',
             '--remote-debugging-pipe', '--user-data-dir=' + profile,
             '--no-first-run', '--disable-extensions', 'about:blank'],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.next_id = 0
        self.buffer = b''
        self.events = []
        self.session = None

    def _read(self):
        while b'\0' not in self.buffer:
            chunk = os.read(self.from_child, 1 << 16)
            if not chunk:
                raise RuntimeError('chromium closed the pipe')
            self.buffer += chunk
        msg, self.buffer = self.buffer.split(b'\0', 1)
        return json.loads(msg)

    def call(self, method, params=None, browser=False):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if self.session and not browser:
            msg['sessionId'] = self.session
        os.write(self.to_child, json.dumps(msg).encode() + b'\0')
        while True:
            reply = self._read()
            if reply.get('id') == self.next_id:
                if 'error' in reply:
                    raise RuntimeError(f'{method}: {reply["error"]}')
                return reply['result']
            self.events.append(reply)

    def wait_event(self, method):
        for i, e in enumerate(self.events):
            if e.get('method') == method:
                del self.events[i]
                return e
        while True:
            e = self._read()
            if e.get('method') == method:
                return e
            self.events.append(e)

    def eval(self, expression):
        r = self.call('Runtime.evaluate', {'expression': expression,
                                           'returnByValue': True})
        if 'exceptionDetails' in r:
            raise RuntimeError(f'{expression}: {r["exceptionDetails"]}')
        return r['result'].get('value')

    def close(self):
        try:
            self.call('Browser.close', browser=True)
        except RuntimeError:
            pass
        self.proc.wait(timeout=30)


def png_rows(data):
    """Decodes an 8-bit RGB or RGBA PNG: (width, height, channels, rows)."""
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, color = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            channels = 3 if color == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


failures = []


def check(ok, what):
    print(('ok    ' if ok else 'FAIL  ') + what)
    if not ok:
        failures.append(what)


def main():
    chromium, report, screenshot, word = sys.argv[1:5]
    url = 'file://' + os.path.abspath(report)
    with tempfile.TemporaryDirectory() as profile:
        dt = DevTools(chromium, profile)
        try:
            target = dt.call('Target.createTarget', {'url': 'about:blank'},
                             browser=True)['targetId']
            dt.session = dt.call('Target.attachToTarget',
                                 {'targetId': target, 'flatten': True},
                                 browser=True)['sessionId']
            dt.call('Network.enable')
            dt.call('Network.emulateNetworkConditions',
                    {'offline': True, 'latency': 0, 'downloadThroughput': -1,
                     'uploadThroughput': -1})
            dt.call('Page.enable')
            dt.call('Runtime.enable')
            dt.call('Emulation.setDeviceMetricsOverride',
                    {'width': 1280, 'height': 1000, 'deviceScaleFactor': 1,
                     'mobile': False})
            dt.call('Page.navigate', {'url': url})
            dt.wait_event('Page.loadEventFired')
            run_checks(dt, url, screenshot, word)
        finally:
            dt.close()
    requests = [e['params']['request']['url'] for e in dt.events
                if e.get('method') == 'Network.requestWillBeSent']
    outside = [u for u in requests if not u.startswith(('file:', 'data:'))]
    check(not outside and url in requests,
          f'loads only itself ({len(requests)} requests, outside: {outside})')
    errors = [e for e in dt.events
              if e.get('method') in ('Runtime.exceptionThrown',
                                     'Log.entryAdded')]
    check(not errors, f'no script errors ({errors[:1]})')
    if failures:
        print(f'{len(failures)} checks failed')
        sys.exit(1)
    print('report-chromium: all checks passed')


def run_checks(dt, url, screenshot, word):
    layout = dt.eval('''(() => {
      const top = e => e.getBoundingClientRect().top + window.scrollY;
      const bins = [...document.querySelectorAll('details.binary')];
      return {
        scrollWidth: document.documentElement.scrollWidth,
        width: window.innerWidth,
        h1: top(document.querySelector('h1')),
        processors: top(document.getElementById('processors')),
        filter: top(document.getElementById('filter')),
        firstBinary: bins.length ? top(bins[0]) : -1,
        binaries: bins.map(b => ({failing: b.classList.contains('failing'),
                                  open: b.open, path: b.dataset.path})),
        kernels: [...document.querySelectorAll('tr.kernel td.kernel code')]
                   .map(c => ({shown: c.textContent, title: c.title})),
      };
    })()''')
    check(layout['scrollWidth'] <= layout['width'],
          f'no sideways overflow ({layout["scrollWidth"]} <= '
          f'{layout["width"]} px)')
    check(layout['h1'] < layout['processors'] < layout['filter'] <
          layout['firstBinary'],
          'title, then processors, then filter, then binaries')
    bins = layout['binaries']
    failing = [b['failing'] for b in bins]
    check(bins and failing == sorted(failing, reverse=True),
          f'binaries with failures first ({failing.count(True)} of '
          f'{len(bins)})')
    check(all(b['open'] == b['failing'] for b in bins),
          'failing binaries open, the others collapsed')
    mangled = [k for k in layout['kernels'] if k['title'].startswith('_Z')]
    check(mangled and all(k['shown'] != k['title'] and '(' in k['shown']
                          for k in mangled),
          f'{len(mangled)} mangled kernels shown demangled, mangled on hover')
    check(all(not b['path'].startswith('/') for b in bins),
          'binary paths relative to the inputs')

    # The bars, as rendered: green share of each bar = compiled / total.
    rows = dt.eval('''[...document.querySelectorAll('#processors tr[data-chip]')]
      .map(r => { const b = r.querySelector('.bar').getBoundingClientRect();
                  const n = r.cells[1].textContent.match(/(\\d+) \\/ (\\d+)/);
                  return {chip: r.dataset.chip, x: b.left, y: b.top,
                          w: b.width, h: b.height, done: +n[1], all: +n[2]}; })''')
    table = dt.eval('''(() => { const r = document.getElementById('processors')
      .getBoundingClientRect(); return {x: r.left, y: r.top + window.scrollY,
      w: r.width, h: r.height}; })()''')
    shot = dt.call('Page.captureScreenshot',
                   {'format': 'png', 'clip': {'x': table['x'],
                                              'y': table['y'],
                                              'width': table['w'],
                                              'height': table['h'],
                                              'scale': 1}})
    data = base64.b64decode(shot['data'])
    with open(screenshot, 'wb') as f:
        f.write(data)
    width, height, ch, pixels = png_rows(data)
    for r in rows:
        y = int(r['y'] - table['y'] + r['h'] / 2)
        x0, x1 = int(r['x'] - table['x']) + 2, int(r['x'] - table['x'] +
                                                   r['w']) - 2
        green = red = 0
        for x in range(max(x0, 0), min(x1, width)):
            p = pixels[y][x * ch:x * ch + 3]
            if p[1] > p[0] + 40:
                green += 1
            elif p[0] > p[1] + 40:
                red += 1
        want = r['done'] / r['all'] if r['all'] else 1
        got = green / (green + red) if green + red else -1
        check(abs(got - want) < 0.03,
              f'{r["chip"]} bar: {got:.3f} green on screen, {r["done"]}/'
              f'{r["all"]} = {want:.3f} compiled')

    # The filter.
    total = dt.eval("document.querySelectorAll('tr.kernel').length")
    res = dt.eval(f'''(() => {{
      const box = document.getElementById('filter');
      box.value = {json.dumps(word)};
      box.dispatchEvent(new Event('input'));
      const rows = [...document.querySelectorAll('tr.kernel')];
      const seen = rows.filter(r => !r.hidden && !r.closest('details').hidden);
      const open = [...document.querySelectorAll('details.binary')]
        .filter(b => !b.hidden);
      return {{shown: seen.length, allOpen: open.every(b => b.open),
               match: seen.every(r => r.dataset.key.includes({json.dumps(word.lower())})
                        || r.closest('details').dataset.path.toLowerCase()
                             .includes({json.dumps(word.lower())})),
               hiddenBins: document.querySelectorAll('details.binary[hidden]').length,
               count: document.getElementById('shown').textContent}};
    }})()''')
    check(0 < res['shown'] < total and res['match'] and res['allOpen'] and
          res['hiddenBins'] > 0,
          f'filter "{word}": {res["shown"]} of {total} kernels shown, '
          f'{res["hiddenBins"]} binaries hidden, matches open '
          f'("{res["count"]}")')
    back = dt.eval('''(() => { const box = document.getElementById('filter');
      box.value = ''; box.dispatchEvent(new Event('input'));
      return [...document.querySelectorAll('tr.kernel')]
        .filter(r => !r.hidden).length; })()''')
    check(back == total, f'filter cleared: all {total} kernels back')
    # A fresh load (not a jump within the page) of the address with #filter=.
    dt.call('Page.navigate', {'url': 'about:blank'})
    dt.wait_event('Page.loadEventFired')
    dt.call('Page.navigate', {'url': url + '#filter=' + word})
    dt.wait_event('Page.loadEventFired')
    hashed = dt.eval('''[document.getElementById('filter').value,
      [...document.querySelectorAll('tr.kernel')].filter(r => !r.hidden
        && !r.closest('details').hidden).length]''')
    check(hashed == [word, res['shown']],
          f'#filter={word} in the address: {hashed}')


if __name__ == '__main__':
    main()
