package io.prmkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.Property;
import io.prmkit.dsl.SourceFile;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Random bytes through the one decoder: it never throws; valid UTF-8 decodes to exactly the JDK's text
 * (BOM dropped, lone CR as LF); invalid input gets one error whose line and column point at the
 * first bad byte. Fixed seeds; a failure names its seed for replay (see Property).
 */
class InputsFuzzTest {
    private static final byte[] ALPHABET = {'a', ' ', '\n', '\r', ';', (byte) 0xc3, (byte) 0xa9, (byte) 0xe9, (byte) 0xef, (byte) 0xbb,
        (byte) 0xbf, (byte) 0xf0, (byte) 0x9f, (byte) 0x80, (byte) 0xff, 0};

    @Test
    void decodingAgreesWithTheJdkOrLocatesTheFirstBadByte() {
        Property.check(2000, g -> {
            byte[] b = new byte[g.size(0, 40)];
            for (int i = 0; i < b.length; i++) b[i] = ALPHABET[g.between(0, ALPHABET.length - 1)];
            g.note("bytes", java.util.HexFormat.of().formatHex(b));
            Inputs.Decoded d = Inputs.decode(new InputFile("f.prm", b));
            String jdk;
            try {
                jdk = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
            } catch (CharacterCodingException e) {
                jdk = null;
            }
            if (jdk != null) {
                assertTrue(d.ok(), () -> String.valueOf(d.problem()));
                String expected = (jdk.startsWith("\uFEFF") ? jdk.substring(1) : jdk).replaceAll("\r(?!\n)", "\n");
                assertEquals(expected, d.file().text());
                return;
            }
            assertTrue(!d.ok(), "invalid UTF-8 must not decode");
            Diagnostic p = d.problem();
            assertTrue(p.message().startsWith("not valid UTF-8 (byte 0x"), p.message());
            // The valid prefix, decoded, ends exactly at the reported line and column.
            int bad = firstBadByte(b);
            String prefix = Inputs.decode(new InputFile("f.prm", java.util.Arrays.copyOf(b, bad))).file().text();
            String[] lines = prefix.split("\n", -1);
            assertEquals(lines.length, p.location().line(), p.toString());
            assertEquals(lines[lines.length - 1].replace("\r", "").length() + 1, p.location().column(), p.toString());
            assertEquals(String.format("%02x", b[bad] & 0xff), p.message().substring("not valid UTF-8 (byte 0x".length(),
                    "not valid UTF-8 (byte 0x".length() + 2));
            new SourceFile("f.prm", prefix).line(p.location().line());
        });
    }

    /** Where the JDK's decoder stops on the first malformed sequence. */
    private static int firstBadByte(byte[] b) {
        java.nio.charset.CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(b);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(b.length + 1);
        java.nio.charset.CoderResult r = dec.decode(in, out, true);
        if (!r.isError()) dec.flush(out);
        return in.position();
    }
}
