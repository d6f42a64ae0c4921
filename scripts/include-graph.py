#!/usr/bin/env python3
"""include-graph.py — the graph of `#include "..."` lines in a source tree (default daemon/).

A module is a .c file with its .h (x.c and x.h are one node). Prints the number of modules and files, every
include circle (a strongly connected component of more than one module) and the folder-to-folder edges.
Exits 1 when there is a circle, between modules or between folders (a layer reaching itself through others),
so ctest runs it as a check (include_graph_*)."""
import os,re,sys,collections
root=sys.argv[1] if len(sys.argv)>1 else 'daemon'
files={}
for d,_,fs in os.walk(root):
    for f in fs:
        if f.endswith(('.c','.h')):
            files[os.path.relpath(os.path.join(d,f),root)]=open(os.path.join(d,f)).read()
# module = path without extension (x.c and x.h are one module)
def mod(p): return os.path.splitext(p)[0]
inc=re.compile(r'^\s*#\s*include\s+"([^"]+)"',re.M)
edges=collections.defaultdict(set)
for p,s in files.items():
    for h in inc.findall(s):
        cand=[os.path.normpath(os.path.join(os.path.dirname(p),h)), os.path.normpath(h)]
        for c in cand:
            if c in files:
                if mod(c)!=mod(p): edges[mod(p)].add(mod(c))
                break
mods=sorted({mod(p) for p in files})
# Tarjan
idx={};low={};st=[];on=set();sccs=[];n=[0]
sys.setrecursionlimit(10000)
def sc(v):
    idx[v]=low[v]=n[0];n[0]+=1;st.append(v);on.add(v)
    for w in edges[v]:
        if w not in idx: sc(w);low[v]=min(low[v],low[w])
        elif w in on: low[v]=min(low[v],idx[w])
    if low[v]==idx[v]:
        c=[]
        while True:
            w=st.pop();on.discard(w);c.append(w)
            if w==v:break
        sccs.append(c)
for v in mods:
    if v not in idx: sc(v)
circ=[sorted(c) for c in sccs if len(c)>1]
print('modules',len(mods),'files',len(files))
print('circles',len(circ))
for c in circ: print('  circle:',' '.join(c))
fold=collections.defaultdict(set)
for a,bs in edges.items():
    for b in bs:
        fa=os.path.dirname(a) or '.'; fb=os.path.dirname(b) or '.'
        if fa!=fb: fold[fa].add(fb)
print('folder edges:')
for f in sorted(fold): print('  %s -> %s'%(f,' '.join(sorted(fold[f]))))
# the folders (layers) must form no circle either: a folder reaching itself through others
def reach(a):
    seen=set(); todo=list(fold[a])
    while todo:
        b=todo.pop()
        if b not in seen:
            seen.add(b); todo.extend(fold.get(b,()))
    return seen
fcirc=sorted(f for f in list(fold) if f in reach(f))
print('folder circles', len(fcirc), ' '.join(fcirc))
sys.exit(1 if circ or fcirc else 0)
