/* The tree's prior: weights of the move features of prior.h (BK_PRIOR_PIECE ...),
 * one row per phase of the game (bk_prior_phase), the prior being exp(w . x).
 * Fitted by benchmarks/fit_prior.py (a softmax over each position's legal moves
 * of the move played) to Pentobi's self-play games:
 *     python3 benchmarks/fit_prior.py --variant duo l5.blksgf l6.blksgf snap-l5.blksgf snap-l6.blksgf
 * 608 games; held out: log-likelihood/move -3.263, top 1 20%, top 21 85%.
 * Generated: fit again rather than edit. */

static const float bk_prior_duo[BK_PRIOR_PHASES][BK_PRIOR_FEATURES] = {
    {-0.2882f, -0.3180f, -0.6003f, -1.6886f, -0.8256f, -2.1926f, -3.0492f, -0.7748f, -2.2386f, 0.9968f, 1.1981f, 0.5569f, 1.3409f, 0.0001f, 0.7610f, 1.3419f, 0.5803f, 1.1646f, 1.1475f, 0.9271f, 1.9607f, 0.2287f, -0.0947f, 1.7267f, 0.0000f, 0.0000f, 1.0058f, 1.2891f, -1.9597f, -0.6022f, -1.0340f, -0.6093f, -0.8268f, -0.3373f, 0.6174f, 1.0224f, 1.5773f, 0.0000f, -1.6046f},
    {-0.9261f, -1.4359f, -1.8285f, -2.9322f, -0.9390f, -1.6291f, -1.4588f, -1.5001f, -1.1065f, 2.0107f, 1.4040f, 0.8224f, 1.0890f, 0.3335f, 0.9172f, 1.3452f, 1.2555f, 1.2672f, 1.6384f, 0.6255f, 1.0474f, 0.0801f, 0.3694f, 1.2735f, 0.0000f, 0.0000f, 0.4305f, 0.4413f, -1.7700f, -0.6537f, 0.0201f, -0.4143f, 0.0060f, -0.2131f, 0.4292f, 0.7421f, 1.0234f, 0.0000f, -1.4998f},
    {-2.4435f, -2.2366f, -1.9255f, -2.2458f, -0.4370f, -0.5191f, -0.6891f, -1.1163f, -0.3265f, 1.4868f, 1.0143f, 0.3446f, 0.8705f, 0.1037f, 0.5606f, 1.4044f, 1.7701f, 1.1847f, 1.4073f, 1.3687f, 0.4239f, 0.2380f, 0.3275f, 1.1312f, 0.0000f, 0.0000f, 0.3451f, 0.3210f, -1.2119f, -0.9001f, 0.2718f, -0.2858f, -0.0791f, 0.0180f, 0.6905f, 0.9033f, 1.5141f, 0.0000f, 0.0000f},
};
