package io.prmkit.driver;

/** Base of every error the driver reports; the message says what failed, where and why. */
public class Mlx5Exception extends RuntimeException {
    public Mlx5Exception(String message) {
        super(message);
    }

    public Mlx5Exception(String message, Throwable cause) {
        super(message, cause);
    }
}
