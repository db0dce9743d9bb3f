"""Bit intrinsics for the numba kernels: population count and bit scans on int64, and
a cache prefetch hint."""

from llvmlite import ir
from numba import types
from numba.core import cgutils
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


@intrinsic
def prefetch(typingctx, table, row, column):
    """Ask the processor to bring ``table[row, column]`` (a 2-D C-contiguous array) into
    the cache: a hint that changes no result, issued early so that a later read of the
    row does not wait on memory."""
    sig = types.void(table, row, column)

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        columns = builder.extract_value(array.shape, 1)
        offset = builder.add(builder.mul(args[1], columns), args[2])
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, hint, "llvm.prefetch.p0i8")
        address = builder.bitcast(builder.gep(array.data, [offset]), byte_pointer)
        builder.call(fn, [address, i32(0), i32(3), i32(1)])  # read, keep in all levels, data
        return context.get_dummy_value()

    return sig, codegen
