/* The tree's prior: weights of the move features of prior.h (BK_PRIOR_PIECE ...),
 * one row per phase of the game (bk_prior_phase), the prior being exp(w . x).
 * Fitted by benchmarks/fit_prior.py (a softmax over each position's legal moves
 * of the move played) to Pentobi's self-play games:
 *     python3 benchmarks/fit_prior.py --variant classic_2 c2a.blksgf c2b.blksgf
 * 123 games; held out: log-likelihood/move -3.350, top 1 17%, top 21 81%.
 * Generated: fit again rather than edit. */

static const float bk_prior_classic[BK_PRIOR_PHASES][BK_PRIOR_FEATURES] = {
    {-0.0002f, -0.0009f, -0.0024f, -0.0200f, -0.0088f, -0.3605f, -0.2086f, -0.0020f, -0.1426f, -0.0887f, -0.7834f, -2.2571f, 1.9975f, -0.5508f, -0.8274f, 3.2050f, -1.6588f, 2.1380f, 2.7588f, -2.8853f, -0.3018f, 0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.0000f, -0.0669f, -0.1308f, 1.2761f, 0.0000f, -2.9372f, 0.0000f, -0.2038f, -2.9323f, 0.9113f, 3.3883f, 0.0000f, -0.7461f},
    {-0.0860f, -0.3174f, -0.9341f, -1.4624f, -1.1394f, -1.7065f, -2.1551f, 0.0526f, -1.2521f, -0.0886f, 0.4578f, 0.2195f, -0.0756f, -0.2441f, -0.2103f, 3.2665f, -0.0775f, 1.3199f, 3.4323f, -0.2604f, 1.2609f, 0.4706f, -0.5294f, 0.7778f, -0.0685f, 1.7696f, 1.4120f, 1.1791f, -1.8935f, 0.3071f, -0.6507f, -0.5521f, -0.3205f, 0.1953f, 0.2049f, 1.0007f, 1.1949f, -0.9224f, -0.7066f},
    {-1.0452f, -1.6860f, -1.8481f, -2.0079f, -0.3865f, -1.4028f, -1.0351f, -1.1502f, -0.7857f, 1.7660f, 1.1413f, 0.8483f, 1.0361f, -0.2857f, 0.2977f, 1.3023f, 1.0687f, 1.1497f, 0.4792f, 0.6850f, 1.8589f, 0.2087f, 0.3075f, 0.7664f, -0.2291f, 0.5795f, 0.4973f, 0.4505f, -1.0935f, -0.4660f, -0.0261f, -0.6248f, -0.3577f, -0.1068f, 0.2215f, 0.3676f, 0.5417f, -0.0086f, 0.0000f},
};
