package io.prmkit.cli;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The CLI's writer over file descriptor 1. A PrintWriter keeps only "an error happened"; this one
 * also keeps the first error, so that a full disk can be named and a reader that went away (the
 * {@code head} of {@code prmkit layout | head}) can be told apart from a failure: the process then
 * ends quietly with the status of a SIGPIPE death, as Unix tools do.
 */
final class StandardOutput extends PrintWriter {
    /** 128 + SIGPIPE: what a shell reports for a tool whose reader went away. */
    static final int READER_GONE = 141;

    private final Recording stream;

    private StandardOutput(Recording stream) {
        super(new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8)));
        this.stream = stream;
    }

    static StandardOutput open() {
        return over(new FileOutputStream(FileDescriptor.out));
    }

    static StandardOutput over(OutputStream out) {
        return new StandardOutput(new Recording(out));
    }

    /** The first write error, or null. */
    IOException firstError() {
        return stream.first;
    }

    /**
     * Whether the first error says the reading end of a pipe was closed. Linux gives EPIPE, whose
     * text HotSpot passes on as the exception's message; nothing else tells it apart.
     */
    boolean readerGone() {
        return brokenPipe(stream.first);
    }

    /** Whether {@code e} (or null) is the EPIPE of a pipe whose reader closed it. */
    static boolean brokenPipe(IOException e) {
        return e != null && e.getMessage() != null && e.getMessage().contains("Broken pipe");
    }

    private static final class Recording extends FilterOutputStream {
        private IOException first;

        Recording(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw keep(e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw keep(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw keep(e);
            }
        }

        private IOException keep(IOException e) {
            if (first == null) first = e;
            return e;
        }
    }
}
