from typing import List, Optional, Tuple, Union

# The real file also imports torch; the demo keeps to the standard library so it runs on
# any server, and fails the same way: without a built flash_ops the import raises.
try:
    from sgl_kernel import flash_ops
except:
    raise ImportError("Can not import FA3 in sgl_kernel. Please check your installation.")


def is_fa3_supported(device=None) -> bool:
    #  FA3 is built for sm_90a only: Hopper works, Blackwell (sm_100 / sm_120) does not.
    return flash_ops.device_capability(device)[0] == 9


def maybe_contiguous(x):
    return x


def flash_attn_with_kvcache(
    q,
    k_cache,
    v_cache,
    cache_seqlens: Optional[int] = None,
    softmax_scale=None,
    causal=False,
    window_size=(-1, -1),  # -1 means infinite context window
    softcap=0.0,  # 0.0 means deactivated
    return_softmax_lse=False,
):
    """Attention against a paged KV cache (FA3 forward)."""
    if softmax_scale is None:
        softmax_scale = len(q[0]) ** (-0.5)
    out, softmax_lse = flash_ops.fwd(q, k_cache, v_cache, cache_seqlens, softmax_scale, causal, window_size, softcap)
    return (out, softmax_lse) if return_softmax_lse else out


def flash_attn_varlen_func(
    q,
    k,
    v,
    cu_seqlens_q,
    cu_seqlens_k,
    max_seqlen_q=None,
    max_seqlen_k=None,
    softmax_scale=None,
    causal=False,
    return_softmax_lse=False,
):
    if not is_fa3_supported():
        raise NotImplementedError(
            "flash_attn at sgl-kernel is only supported on sm90 and above"
        )
    out, softmax_lse = flash_ops.varlen_fwd(q, k, v, cu_seqlens_q, cu_seqlens_k, softmax_scale, causal)
    return (out, softmax_lse) if return_softmax_lse else out
