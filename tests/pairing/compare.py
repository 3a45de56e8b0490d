#!/usr/bin/env python3
"""Compares pair_trf (the Dutch system of server/rules/pair_dutch.c) with another
Dutch pairing program round by round.

  compare.py PAIR_TRF BBP [--players LO-HI] [--tournaments N] [--seed S]
             [--keep DIR] [--rules 2017|2025]

BBP is a program with the JaVaFo-style interface (`--dutch -g CONFIG -o
FILE -s SEED` makes a random tournament, `--dutch FILE -p OUT` pairs the
next round). For each random tournament it makes, every round is cut out
as a TRF of the rounds before it (with the byes and absences already
entered for that round, XXR the rounds planned), paired by pair_trf, and
compared with the round the generator paired. Prints a line per
disagreement and the totals. Not part of `make test`: it needs the other
program (tests/pairing/compare.sh finds it or skips). --rules is the
rules pair_trf pairs by (2025 by default): 2017 against bbpPairings 5.0.1,
2025 against its dutch-2025 branch."""
import argparse, os, random, subprocess, sys, tempfile

def parse(path):
    text = open(path, 'rb').read().decode('latin-1').replace('\r\n', '\n').replace('\r', '\n')
    players = {}
    for line in text.split('\n'):
        if line.startswith('001'):
            pid = int(line[4:8])
            rounds = []
            at = 91
            while at + 8 <= len(line):
                rounds.append(line[at:at + 8])
                at += 10
            players[pid] = (line, rounds)
    return players

def points(entries):
    p = 0
    for e in entries:
        r = e[7].upper()
        if r in '1+WFU':
            p += 2
        elif r in '=DH':
            p += 1
    return p

def first_colour(players):
    """What starting rank 1 had, or would have had, in round 1."""
    k = 0
    for pid in sorted(players):
        rounds = players[pid][1]
        if rounds and rounds[0][0:4].strip() in ('', '0000') and rounds[0][7].upper() not in 'U+':
            continue  # not in round 1's pairing: no pairing number yet
        if rounds and rounds[0][5] in 'wb':
            c = rounds[0][5]
            if k % 2:
                c = 'b' if c == 'w' else 'w'
            return 'white' if c == 'w' else 'black'
        k += 1
    return 'white'

def cut(players, r, total):
    """The TRF of rounds 1..r, with round r+1's entries for who is not paired."""
    out = ['012 cut', 'XXR %d' % total, 'XXC %s1' % first_colour(players)]
    for pid in sorted(players):
        line, rounds = players[pid]
        keep = rounds[:r]
        if len(rounds) > r:
            e = rounds[r]
            opp = e[0:4].strip()
            if (opp in ('', '0000')) and e[7].upper() != 'U' and e.strip():
                keep = keep + [e]
        pts = points(keep)
        head = line[:80] + '%2d.%d' % (pts // 2, 5 if pts % 2 else 0) + line[84:91]
        out.append((head + '  '.join(keep)).rstrip())
    return '\n'.join(out) + '\n'

def expected(players, r):
    pairs = set()
    for pid, (line, rounds) in players.items():
        if len(rounds) <= r:
            continue
        e = rounds[r]
        opp = e[0:4].strip()
        if e[7].upper() == 'U':
            pairs.add((pid, 0))
        elif opp not in ('', '0000'):
            if e[5] == 'w':
                pairs.add((pid, int(opp)))
    return pairs

def read_pairs(text):
    lines = text.split()
    n = int(lines[0])
    pairs = set()
    for i in range(n):
        pairs.add((int(lines[1 + 2 * i]), int(lines[2 + 2 * i])))
    return pairs

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('pair_trf')
    ap.add_argument('bbp')
    ap.add_argument('--players', default='5-200')
    ap.add_argument('--rounds', default='')
    ap.add_argument('--tournaments', type=int, default=20)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--keep', default='')
    ap.add_argument('--rules', default='2025', choices=['2017', '2025'])
    ap.add_argument('--check-bbp', action='store_true',
                    help='also pair each cut with BBP -p (slower)')
    a = ap.parse_args()
    lo, hi = map(int, a.players.split('-'))
    rng = random.Random(a.seed)
    tmp = tempfile.mkdtemp(prefix='paircmp')
    rounds_ok = rounds_all = t_ok = 0
    kinds = {}
    for t in range(a.tournaments):
        n = rng.randint(lo, hi)
        if a.rounds:
            rlo, rhi = map(int, a.rounds.split('-'))
            total = rng.randint(rlo, rhi)
        else:
            total = rng.randint(3, max(3, min(11, n // 2 + 1)))
        cfg = os.path.join(tmp, 'cfg')
        with open(cfg, 'w') as f:
            f.write('PlayersNumber=%d\nRoundsNumber=%d\nDrawPercentage=%d\n'
                    'ForfeitRate=%d\nRetiredRate=%d\nHalfPointByeRate=%d\n'
                    % (n, total, rng.choice([0, 20, 35]), rng.choice([20, 60, 100000]),
                       rng.choice([30, 150, 100000]), rng.choice([15, 60, 100000])))
        gen = os.path.join(tmp, 't%d.trf' % t)
        seed = rng.randint(1, 10**9)
        for attempt in range(5):
            p = subprocess.run([a.bbp, '--dutch', '-g', cfg, '-o', gen, '-s', str(seed)],
                               capture_output=True)
            if p.returncode == 0:
                break
            seed += 1
        if p.returncode != 0:
            print('generator failed: n=%d rounds=%d seed=%d' % (n, total, seed))
            continue
        players = parse(gen)
        all_ok = True
        for r in range(total):
            trf = os.path.join(tmp, 't%d_r%d.trf' % (t, r + 1))
            with open(trf, 'w') as f:
                f.write(cut(players, r, total))
            want = expected(players, r)
            if a.check_bbp:
                q = subprocess.run([a.bbp, '--dutch', trf, '-p'], capture_output=True, text=True)
                if q.returncode == 0:
                    bp = read_pairs(q.stdout)
                    if bp != want:
                        print('note: %s: the generator and -p differ' % trf)
                        want = bp
            q = subprocess.run([a.pair_trf, '--rules', a.rules, trf], capture_output=True, text=True)
            rounds_all += 1
            if q.returncode != 0:
                got = None
                kind = 'failed: ' + q.stderr.strip().split(': ', 1)[-1][:60]
            else:
                got = read_pairs(q.stdout)
                if got == want:
                    rounds_ok += 1
                    continue
                same_pairs = {frozenset(x) for x in got} == {frozenset(x) for x in want}
                kind = 'colours only' if same_pairs else 'pairs'
            kinds[kind] = kinds.get(kind, 0) + 1
            all_ok = False
            print('DIFF n=%d round %d/%d seed=%d (%s): %s' % (n, r + 1, total, seed, kind, trf))
            if a.keep:
                os.makedirs(a.keep, exist_ok=True)
                subprocess.run(['cp', trf, a.keep])
        t_ok += all_ok
    print('rounds agreed: %d of %d; tournaments agreed in every round: %d of %d'
          % (rounds_ok, rounds_all, t_ok, a.tournaments))
    for k, v in sorted(kinds.items()):
        print('  %s: %d' % (k, v))
    return 0 if rounds_ok == rounds_all else 1

if __name__ == '__main__':
    sys.exit(main())
