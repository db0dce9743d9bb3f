"""Bit intrinsics for the numba kernels: population count and bit scans on int64."""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_FALSE = ir.Constant(ir.IntType(1), 0)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero int64."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], _FALSE)

    return sig, codegen


@intrinsic
def highest_bit(typingctx, x):
    """Index of the highest set bit of a non-zero int64."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], _FALSE)
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return sig, codegen
