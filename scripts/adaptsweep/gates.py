#!/usr/bin/env python3
"""Score gates of the fine-tune's check on adaptsweep's output.

adaptsweep run with -forced (the default) prints, for every cell, what the
check said of the fine-tune (its scores in the reason column) and what the
fine-tune on the input did to the whole image (the forced column). This
reads such TSV files and, for a grid of gates (the check's smallest side,
the fewest bands, the PSNR and SAM margins, and whether the plain check must agree), prints how many cells each
gate would adapt, how many of those lose more than 0.02 dB or 0.02 degrees
against the shipped pair, and their summed gain. Gates only refuse, so the
figures are exact for the adaptation as it would run with them.

    python3 scripts/adaptsweep/gates.py nat128.tsv:nat hsi.tsv hsi10.tsv:10 hsi30.tsv:30

A file's suffix says how its bands are counted: ":nat" for the natural
images (3 bands or fewer), ":N" for `-every N` on the training scenes
(bands from ../shared/data/hsi/scenes.tsv), none for the scenes whole. The
model card's "The fine-tune's gates" was made with it. Standard library
only.
"""
import csv
import itertools
import math
import os
import re
import statistics
import sys

NUM = r'(-?[\d.]+|NaN|\+Inf|-Inf)'


def scene_bands():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, '..', '..', '..', 'shared', 'data', 'hsi', 'scenes.tsv')
    out = {}
    if os.path.exists(path):
        for r in csv.DictReader(open(path), delimiter='\t'):
            out[os.path.splitext(os.path.basename(r['file']))[0]] = int(r['bands'])
    return out


def read(arg, bands):
    path, _, kind = arg.partition(':')
    rows = []
    for line in open(path):
        if line.startswith('#') or line.startswith('noise\t') or line.startswith('M\t'):
            continue
        c = line.rstrip('\n').split('\t')
        if len(c) < 14:
            continue
        noise, img, x = c[0], c[1], float(c[2])
        shipped, forced = float(c[4]), float(c[6])
        sam_shipped, sam_forced = float(c[8]), float(c[10])
        choice, reason = c[11], c[13]
        side = re.search(r'to (\d+) x (\d+) pixels', reason)
        tuned = re.search(r'adapted there \(\d+ steps\) ' + NUM + r' dB / ' + NUM + ' deg', reason)
        if not side or not tuned or choice == 'other':
            continue  # no fine-tune checked, or the cell was routed
        base = re.search(r'shipped \([^)]*\) ' + NUM + r' dB / ' + NUM + ' deg', reason)
        if kind == 'nat':
            nb = 3
        else:
            nb = math.ceil(bands[img] / (int(kind) if kind else 1))
        plain = re.search(r'adapted there[^;]*\(plain check: ' + NUM + r' dB / ' + NUM + r' deg against ' + NUM + r' dB / ' + NUM + r' deg\)', reason)
        pl = None
        if plain:
            pa, sa, pb, sb = map(float, plain.groups())
            pl = (round(pa - pb, 2), round(sb - sa, 3))
        rows.append(dict(file=path, noise=noise, img=img, x=x, plain=pl,
                         side=min(int(side.group(1)), int(side.group(2))), bands=nb,
                         dp=round(float(tuned.group(1)) - float(base.group(1)), 2),
                         ds=round(float(base.group(2)) - float(tuned.group(2)), 3),
                         gp=forced - shipped, gs=sam_shipped - sam_forced))
    return rows


def main(args):
    if not args:
        print(__doc__)
        return 2
    bands = scene_bands()
    rows = [r for a in args for r in read(a, bands)]
    print(f'{len(rows)} checked cells')
    clean = [r for r in rows if r['noise'] == 'clean']
    for name, sub in (('natural images', [r for r in clean if r['bands'] <= 3]),
                      ('scenes, check under 24', [r for r in clean if r['bands'] > 3 and r['side'] < 24]),
                      ('scenes, check 24 or more', [r for r in clean if r['bands'] > 3 and r['side'] >= 24])):
        if len(sub) > 2:
            corr = statistics.correlation([r['dp'] for r in sub], [r['gp'] for r in sub])
            print(f'clean {name}: {len(sub)} cells, correlation of the check\'s gain with the image\'s {corr:.2f}')
    def keeps(r, side, nb, mp, ms, plain):
        if r['side'] < side or r['bands'] < nb or r['dp'] < mp or r['ds'] < ms:
            return False
        # With plain, the plain check must agree by the same margins.
        return not plain or (r['plain'] is not None and r['plain'][0] >= mp and r['plain'][1] >= ms)

    def loses(r):
        return r['gp'] < -0.02 or r['gs'] < -0.02

    gates = list(itertools.product((16, 20, 22, 24, 25, 30, 32), (0, 4, 6, 8, 10, 16),
                                   (0.02, 0.05, 0.1, 0.15, 0.2, 0.3), (-0.05, -0.02, 0, 0.005, 0.01, 0.02),
                                   (False, True)))
    grid = []
    for g in gates:
        kept = [r for r in rows if keeps(r, *g)]
        grid.append((sum(map(loses, kept)), -sum(r['gp'] for r in kept)) + g + (kept,))
    grid.sort(key=lambda g: g[:7])
    print('losing\tadapted\tsum dB\tside\tbands\tmargin dB\tmargin deg\tplain check')
    for g in grid[:20]:
        print(f'{g[0]}\t{len(g[7])}\t{-g[1]:+.3f}\t{g[2]}\t{g[3]}\t{g[4]}\t{g[5]}\t{g[6]}')
    nat = [r for r in rows if r['bands'] <= 3]
    safe = [g for g in gates if any(keeps(r, *g) for r in nat) and not any(loses(r) for r in nat if keeps(r, *g))]
    print(f'\nnatural images: {len(safe)} of {len(gates)} gates adapt at least one cell and lose none')
    for side, nb in ((16, 0), (24, 4)):
        kept = [r for r in rows if r['side'] >= side and r['bands'] >= nb and r['dp'] >= 0.02 and r['ds'] >= 0]
        print(f'\nside >= {side}, bands >= {nb}, 0.02 dB, SAM not worse: {len(kept)} adapted')
        for r in kept:
            print(f"  {r['noise']} {r['img']} x{r['x']:g}: check {r['side']} px, {r['bands']} bands, "
                  f"{r['dp']:+.2f} dB / {r['ds']:+.3f} deg; image {r['gp']:+.3f} dB / {r['gs']:+.3f} deg")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
