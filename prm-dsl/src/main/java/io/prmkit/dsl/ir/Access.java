package io.prmkit.dsl.ir;

/**
 * Who writes a field. RO and OUT fields get no setter in generated code: the device writes them.
 * A field without an explicit access gets IN in structures named {@code *_in}, OUT in structures
 * named {@code *_out} (the command mailbox convention) and RW elsewhere.
 */
public enum Access {
    /** Read-only for software: the device writes it. */
    RO,
    /** Read and written by software. */
    RW,
    /** Written by software, reads back undefined. */
    WO,
    /** A command input: software writes it, firmware reads it. */
    IN,
    /** A command output: firmware writes it. */
    OUT;

    /** Whether software may write the field, i.e. whether generated code offers a setter. */
    public boolean writable() {
        return this == RW || this == WO || this == IN;
    }
}
