package io.prmkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputsTest {
    @TempDir
    Path dir;

    private static Inputs.Decoded decode(byte[] bytes) {
        return Inputs.decode(new InputFile("f.prm", bytes));
    }

    @Test
    void aBadByteIsLocatedByCharactersNotBytes() {
        byte[] b = "package p;\n// \u00fc\u00fc".getBytes(StandardCharsets.UTF_8);
        byte[] withBad = java.util.Arrays.copyOf(b, b.length + 1);
        withBad[b.length] = (byte) 0xe9;
        Inputs.Decoded d = decode(withBad);
        assertFalse(d.ok());
        assertEquals("f.prm:2:6: error: not valid UTF-8 (byte 0xe9)", d.problem().toString());
    }

    @Test
    void theByteOrderMarkIsDroppedAndNotCountedAsAColumn() {
        assertEquals("package p;\n", decode("\uFEFFpackage p;\n".getBytes(StandardCharsets.UTF_8)).file().text());
        byte[] b = "\uFEFFab".getBytes(StandardCharsets.UTF_8);
        byte[] withBad = java.util.Arrays.copyOf(b, b.length + 1);
        withBad[b.length] = (byte) 0xff;
        assertEquals("f.prm:1:3: error: not valid UTF-8 (byte 0xff)", decode(withBad).problem().toString());
    }

    @Test
    void anOutputPathThatIsAFileIsNamedOnceWhetherGivenRelativeOrAbsolute() {
        Path relative = Path.of("out.prm");
        // OutputSync reports the absolute path; the message must not repeat it after the user's own
        var blocked = new OutputSync.FileNotAFolder(relative.toAbsolutePath());
        assertEquals("is a file, not a folder", Inputs.reason(relative, blocked));
        assertEquals("is a file, not a folder", Inputs.reason(relative.toAbsolutePath(), blocked));
        Path inside = relative.toAbsolutePath().resolve("x");
        assertEquals(relative.toAbsolutePath() + " is a file, not a folder", Inputs.reason(inside, blocked));
    }

    @Test
    void aLoneCarriageReturnBecomesALineFeedAndCrlfStays() {
        assertEquals("a\nb\r\nc\n", decode("a\rb\r\nc\r".getBytes(StandardCharsets.UTF_8)).file().text());
    }

    @Test
    void eachFileIsReadOnceAndFoldersAreSorted() throws IOException {
        Path sub = Files.createDirectories(dir.resolve("s"));
        Files.writeString(sub.resolve("b.prm"), "b");
        Files.writeString(sub.resolve("a.prm"), "a");
        Files.writeString(sub.resolve("notes.txt"), "not a spec");
        Inputs.Read r = Inputs.specs(List.of(sub.resolve("b.prm"), sub, sub.resolve("./a.prm")));
        assertFalse(r.hasProblems(), r.problems().toString());
        assertEquals(List.of(sub.resolve("b.prm").toString(), sub.resolve("a.prm").toString()),
                r.files().stream().map(f -> f.name()).toList());
        assertEquals(2, r.raw().size());
    }

    @Test
    void headersBringTheirIncludesFirst() throws IOException {
        Files.writeString(dir.resolve("mlx5_ifc_fpga.h"), "/* fpga */\n");
        Path main = Files.writeString(dir.resolve("mlx5_ifc.h"), "#include \"mlx5_ifc_fpga.h\"\n#include <linux/types.h>\n");
        Inputs.Read r = Inputs.headers(List.of(main, main));
        assertEquals(List.of(dir.resolve("mlx5_ifc_fpga.h").toString(), main.toString()), r.files().stream().map(f -> f.name()).toList());
    }

    @Test
    void problemsNameThePathAndTheReasonInWords() throws IOException {
        Inputs.Read r = Inputs.specs(List.of(dir.resolve("missing.prm")));
        assertEquals(List.of(dir.resolve("missing.prm") + ": error: no such file or folder"),
                r.problems().stream().map(Object::toString).toList());
        Path link = dir.resolve("dangling.prm");
        Files.createSymbolicLink(link, dir.resolve("nowhere.prm"));
        String dangling = Inputs.specs(List.of(link)).problems().get(0).toString();
        assertTrue(dangling.endsWith(": error: broken symbolic link (to " + dir.resolve("nowhere.prm") + ")"), dangling);
    }

    @Test
    void anIoFailureIsDescribedByPathAndReasonWithoutExceptionNames() {
        java.nio.file.AccessDeniedException denied = new java.nio.file.AccessDeniedException("/out/x/Y.java");
        assertEquals("/out/x/Y.java: permission denied", Inputs.describe(denied, Path.of("/out")));
        java.nio.file.FileSystemException full = new java.nio.file.FileSystemException("/out/Z.java", null, "No space left on device");
        assertEquals("/out/Z.java: No space left on device", Inputs.describe(full, Path.of("/out")));
        assertEquals("/out: input/output error", Inputs.describe(new IOException(), Path.of("/out")));
    }
}
