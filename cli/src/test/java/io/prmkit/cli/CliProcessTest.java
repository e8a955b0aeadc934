package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code main}, in a process of its own, prints what the commands print. The other CLI
 * tests run the commands in this JVM over string writers, where nothing can be lost; a real process
 * ends in System.exit, which flushes no writer, so a message printed without a line break of its
 * own was lost there ({@code prmkit diff a.prm none.prm} printed nothing and exited 1). And only a
 * real process has a pipe whose reader can go away.
 */
class CliProcessTest {
    @TempDir
    Path dir;

    @Test
    void everyFailingCommandSaysWhyInARealProcessToo() throws Exception {
        Path ok = Files.writeString(dir.resolve("ok.prm"), "package p;\nstruct s size 0x4 {\n    x : 0x20;\n}\n");
        Path binary = Files.write(dir.resolve("bin.prm"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        Path none = dir.resolve("none.prm");
        Path out = dir.resolve("out");
        List<List<String>> invocations = List.of(
                List.of("diff", ok.toString(), none.toString()),
                List.of("diff", binary.toString(), ok.toString()),
                List.of("diff", dir.toString(), ok.toString()),
                List.of("check", none.toString()),
                List.of("check", binary.toString()),
                List.of("layout", none.toString()),
                List.of("generate", none.toString(), "-o", out.toString()),
                List.of("import-ifc", dir.resolve("none.h").toString(), "-o", out.toString()),
                List.of("doc", none.toString(), "-o", out.toString()),
                List.of("decode", "cqe64", none.toString()));
        List<String> wrong = new ArrayList<>();
        for (List<String> args : invocations) {
            Run inside = PrmkitCliTest.run(args.toArray(String[]::new));
            Run real = runMain(args);
            assertTrue(inside.exitCode() != 0, args + " should fail");
            assertFalse(inside.err().isBlank(), args + " says nothing in this JVM either");
            if (real.exitCode() != inside.exitCode() || !real.err().equals(inside.err()) || !real.out().equals(inside.out())) {
                wrong.add(args + ": in this JVM exit " + inside.exitCode() + ", stderr [" + inside.err() + "]; as a process exit "
                        + real.exitCode() + ", stderr [" + real.err() + "]");
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** {@code prmkit layout | head -1}: no "cannot write" message when the reader has what it wanted, and the status of a SIGPIPE death. */
    @Test
    void aReaderThatStopsReadingEndsTheCommandQuietly() throws Exception {
        Path err = dir.resolve("err.txt");
        Child.Running p = Child.start(new ProcessBuilder(javaCommand(List.of("layout"))).redirectError(err.toFile()), Duration.ofMinutes(2));
        // The bundled spec's layout is about 300 KB, more than a pipe holds: the command is still writing.
        byte[] first = p.process().getInputStream().readNBytes(100);
        assertEquals(100, first.length);
        p.process().getInputStream().close();
        assertEquals(StandardOutput.READER_GONE, p.finish().exit(), Files.readString(err));
        assertEquals("", Files.readString(err));
    }

    /**
     * {@code prmkit decode cqe64 <&-}: standard input closed when prmkit starts. The JVM reuses
     * descriptor 0 for its own lib/modules, which decode read as the dump ("larger than 8 MiB");
     * now one sentence (issue 36 item 7).
     */
    @Test
    void decodeWithStandardInputClosedSaysSo() throws Exception {
        HostTools.requireSystem(Files.isExecutable(Path.of("/bin/sh")) && Files.isDirectory(Path.of("/proc/self/fd")),
                "/bin/sh and /proc/self/fd", "closing standard input for a child, and seeing what descriptor 0 holds");
        Path err = dir.resolve("err.txt");
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "exec \"$@\" <&-", "sh"));
        command.addAll(javaCommand(List.of("decode", "cqe64")));
        Child.Result r = Child.run(new ProcessBuilder(command).redirectError(err.toFile()), Duration.ofMinutes(2));
        assertEquals(1, r.exit(), Files.readString(err));
        assertEquals("prmkit decode: standard input is closed, and the dump was to come from it: name the dump's FILE or pipe the dump in\n",
                Files.readString(err));
        // and an open standard input is still read
        Child.Result piped = Child.run(new ProcessBuilder(javaCommand(List.of("decode", "cqe64"))).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))), Duration.ofMinutes(2));
        assertEquals(1, piped.exit());
        assertEquals("<stdin>: error: no hex bytes in the input\n", Files.readString(err));
    }

    /** {@code java ... PrmkitCli ARGS} on this test's JDK and class path: the real main in a process of its own. */
    static List<String> javaCommand(List<String> args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), PrmkitCli.class.getName()));
        command.addAll(args);
        return command;
    }

    private static Run runMain(List<String> args) throws Exception {
        Path err = Files.createTempFile("prmkit-err", ".txt");
        try {
            Child.Result r = Child.run(new ProcessBuilder(javaCommand(args)).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))), Duration.ofMinutes(2));
            return new Run(r.exit(), r.stdout(), Files.readString(err));
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
