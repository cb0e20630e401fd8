#include "blst.h"
static byte scalars[64*32];
static blst_p1_affine pts[64];
static const blst_p1_affine *ptrs[64];
static const byte *sptrs[64];
static unsigned char scratch[1<<16];
static void *memsetx(void *d, int c, unsigned long n){unsigned char*p=d;while(n--)*p++=c;return d;}
__attribute__((export_name("setup"))) int setup(void){
  blst_p1 p; byte s[32];
  for (int i=0;i<64;i++){ memsetx(s,0,32); s[0]=i+3; s[31]=0x1f;
    blst_p1_mult(&p, blst_p1_generator(), s, 255); blst_p1_to_affine(&pts[i], &p); ptrs[i]=&pts[i];
    for(int j=0;j<32;j++) scalars[i*32+j]=(byte)(i*31+j*7+1); scalars[i*32+31]&=0x3f; sptrs[i]=&scalars[i*32]; }
  return blst_p1s_mult_pippenger_scratch_sizeof(64);
}
__attribute__((export_name("fr"))) int fr(int n){ blst_fr a, b; memsetx(&a,0,sizeof a); memsetx(&b,0,sizeof b); a.l[0]=7; b.l[0]=11;
  for(int i=0;i<n;i++) blst_fr_mul(&a,&a,&b); return (int)a.l[0]; }
__attribute__((export_name("pairing"))) int pairing(int n){ blst_fp12 f, g; blst_p2_affine q; blst_p2_to_affine(&q, blst_p2_generator());
  const blst_p2_affine *qs[2]={&q,&q}; const blst_p1_affine *ps[2]={&pts[0],&pts[1]};
  for(int i=0;i<n;i++){ blst_miller_loop_n(&f, qs, ps, 2); blst_final_exp(&g,&f);} return (int)g.fp6[0].fp2[0].fp[0].l[0]; }
__attribute__((export_name("decomp"))) int decomp(int n){ byte c[48]; blst_p1_affine a; int ok=0;
  for(int i=0;i<n;i++){ blst_p1_affine_compress(c,&pts[i&63]); ok+= blst_p1_uncompress(&a,c)==BLST_SUCCESS; ok+=blst_p1_affine_in_g1(&a);} return ok; }
__attribute__((export_name("msm"))) int msm(int n){ blst_p1 r; for(int i=0;i<n;i++) blst_p1s_mult_pippenger(&r, ptrs, 64, sptrs, 255, (limb_t*)scratch); return (int)r.x.l[0]; }
