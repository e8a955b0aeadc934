package io.prmkit.maven;

/**
 * A problem with the user's input or configuration, already explained in the log; the message is
 * the one-line summary Maven prints with BUILD FAILURE.
 */
final class GenerationException extends Exception {
    GenerationException(String message) {
        super(message);
    }
}
