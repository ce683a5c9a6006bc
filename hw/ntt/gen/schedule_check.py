import sys
def ins0(x,l): return ((x>>l)<<(l+1)) | (x & ((1<<l)-1))
def rem(x,l): return ((x>>(l+1))<<l) | (x & ((1<<l)-1))
def stages(n,B,inv):
    S=n.bit_length()-1
    out=[]
    for s in range(S):
        ln = (1<<s) if inv else n>>(s+1)
        l = (ln//B).bit_length()-1 if ln>=B else 0
        out.append(l)
    return out
def sim(n,B,inv,L):
    T=n//(2*B); ls=stages(n,B,inv); S=len(ls)
    retire=[]  # time at which global idx written
    t_now=0; stalls=0
    for s in range(S):
        for t in range(T):
            J=ins0(t,ls[s]); J2=J+(1<<ls[s])
            if s>0:
                lp=ls[s-1]
                dep=(s-1)*T+max(rem(J,lp),rem(J2,lp))
                need=retire[dep]+1
                if t_now<need: stalls+=need-t_now; t_now=need
            retire.append(t_now+L)
            t_now+=1
    return t_now+L, stalls
for n in (256,512,1024):
  pass
for n in ():
  for B in (1,2,4):
    for inv in (0,1):
      for L in (6,8):
        tot,st=sim(n,B,inv,L)
        ideal=(n//2)*(n.bit_length()-1)//B
        print(n,B,'inv' if inv else 'fwd','L',L,'total',tot,'stalls',st,'ideal',ideal, 'ratio %.3f'%((ideal+st)/ideal))
for n in (256,512,1024):
  for B in (1,2,4):
    for inv in (0,1):
      for L in (9,10,12,16):
        tot,st=sim(n,B,inv,L)
        if st: print(n,B,inv,L,'stalls',st)
print('done')
