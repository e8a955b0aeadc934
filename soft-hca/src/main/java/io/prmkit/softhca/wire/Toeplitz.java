package io.prmkit.softhca.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The Toeplitz hash RSS uses (Microsoft's RSS specification; the TIR's {@code rx_hash_fn} TOEPLITZ):
 * for every set bit {@code i} of the input, XOR in the 32 key bits starting at bit {@code i}. The
 * key's windows are expanded once into a table of 256 entries per input byte, so hashing costs one
 * lookup per byte. Inputs up to 36 bytes (IPv6 addresses and ports) with a 40-byte key.
 */
public final class Toeplitz {
    public static final int MAX_INPUT = 36;
    private final int[] table; // [byte position * 256 + byte value]

    public Toeplitz(byte[] key) {
        if (key.length < 4 || key.length * 8 < MAX_INPUT * 8 + 32) {
            throw new IllegalArgumentException("a Toeplitz key needs " + (MAX_INPUT + 4) + " bytes, got " + key.length);
        }
        table = new int[MAX_INPUT * 256];
        for (int pos = 0; pos < MAX_INPUT; pos++) {
            for (int bit = 0; bit < 8; bit++) {
                int window = window(key, pos * 8 + bit);
                int mask = 0x80 >>> bit;
                for (int v = 0; v < 256; v++) if ((v & mask) != 0) table[pos * 256 + v] ^= window;
            }
        }
    }

    /** The 32 key bits starting at bit {@code b} (MSB first). */
    private static int window(byte[] key, int b) {
        long k = 0;
        int first = b >>> 3;
        for (int i = 0; i < 5; i++) k = (k << 8) | (first + i < key.length ? key[first + i] & 0xff : 0);
        return (int) (k >>> (8 - (b & 7)));
    }

    /** Continues a hash over {@code len} bytes of {@code s} at {@code off}, which sit at input position {@code pos}. */
    public int hash(int h, int pos, MemorySegment s, long off, int len) {
        // Toeplitz input is a byte string (the fields laid end to end), so the bytes are read as bytes
        for (int i = 0; i < len; i++) h ^= table[(pos + i) * 256 + (s.get(ValueLayout.JAVA_BYTE, off + i) & 0xff)];
        return h;
    }

    /** Continues a hash with a 16-bit big-endian value at input position {@code pos}. */
    public int hash16(int h, int pos, int v) {
        return h ^ table[pos * 256 + ((v >>> 8) & 0xff)] ^ table[(pos + 1) * 256 + (v & 0xff)];
    }

    /** Continues a hash with a 32-bit big-endian value (an IPv4 address) at input position {@code pos}. */
    public int hash32(int h, int pos, int v) {
        return h ^ table[pos * 256 + (v >>> 24)] ^ table[(pos + 1) * 256 + ((v >>> 16) & 0xff)]
                ^ table[(pos + 2) * 256 + ((v >>> 8) & 0xff)] ^ table[(pos + 3) * 256 + (v & 0xff)];
    }

    /** Hash of a whole byte array (for tests and tools). */
    public int hash(byte[] in) {
        int h = 0;
        for (int i = 0; i < in.length; i++) h ^= table[i * 256 + (in[i] & 0xff)];
        return h;
    }
}
