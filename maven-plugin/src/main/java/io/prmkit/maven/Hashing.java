package io.prmkit.maven;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 helpers. Fields are length-prefixed so that ("ab","c") and ("a","bc") hash differently. */
final class Hashing {
    private final MessageDigest md = newSha256();

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(newSha256().digest(bytes));
    }

    Hashing add(String s) {
        return add(s.getBytes(StandardCharsets.UTF_8));
    }

    Hashing add(byte[] bytes) {
        md.update(longBytes(bytes.length));
        md.update(bytes);
        return this;
    }

    String hex() {
        return HexFormat.of().formatHex(md.digest());
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
