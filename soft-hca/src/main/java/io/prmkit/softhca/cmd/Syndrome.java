package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.CmdStatus;

/**
 * The soft device's command syndromes. Real syndromes are opaque firmware codes; these are ours:
 * {@code 0x5c000000 | opcode << 8 | reason}, so a syndrome names the command and the reason
 * ({@link #describe} decodes one). Each reason comes with the command status it is reported with.
 */
public enum Syndrome {
    BAD_OPCODE(0x01, CmdStatus.BAD_OP_ERR, "opcode not implemented by the device"),
    BAD_OP_MOD(0x02, CmdStatus.BAD_PARAM_ERR, "op_mod not valid for this command"),
    INPUT_TOO_SHORT(0x03, CmdStatus.BAD_INP_LEN_ERR, "input_length shorter than the command's input structure"),
    OUTPUT_TOO_SHORT(0x04, CmdStatus.BAD_OUTP_LEN_ERR, "output_length shorter than the command's output structure"),
    NOT_ENABLED(0x05, CmdStatus.BAD_SYS_STATE_ERR, "the function is not enabled (ENABLE_HCA first)"),
    NOT_INITIALIZED(0x06, CmdStatus.BAD_SYS_STATE_ERR, "the HCA is not initialized (INIT_HCA first)"),
    ALREADY_INITIALIZED(0x07, CmdStatus.BAD_SYS_STATE_ERR, "not allowed once INIT_HCA has run"),
    ALREADY_ENABLED(0x08, CmdStatus.BAD_SYS_STATE_ERR, "the function is already enabled"),
    OTHER_FUNCTION(0x09, CmdStatus.BAD_PARAM_ERR, "function_id / other_function name a function that does not exist (only function 0)"),
    BAD_ISSI(0x0a, CmdStatus.BAD_PARAM_ERR, "ISSI not in supported_issi"),
    MISSING_PAGES(0x0b, CmdStatus.NO_RES_ERR, "INIT_HCA before the boot and init pages were given"),
    BAD_PAGE_ADDRESS(0x0c, CmdStatus.BAD_PARAM_ERR, "a page address is not 4 KiB aligned or not mapped for DMA"),
    DUPLICATE_PAGE(0x0d, CmdStatus.BAD_PARAM_ERR, "a page the device already holds was given again"),
    PAGE_COUNT(0x0e, CmdStatus.BAD_INP_LEN_ERR, "input_num_entries does not fit input_length"),
    BAD_CAP_TYPE(0x0f, CmdStatus.BAD_PARAM_ERR, "capability type not modelled or not settable"),
    CAP_NOT_SETTABLE(0x10, CmdStatus.BAD_PARAM_ERR, "SET_HCA_CAP changes a field that is not settable"),
    CAP_ABOVE_MAX(0x11, CmdStatus.BAD_PARAM_ERR, "SET_HCA_CAP value above the maximum capability"),
    BAD_REGISTER(0x12, CmdStatus.BAD_PARAM_ERR, "register_id not modelled"),
    BAD_REGISTER_FIELD(0x13, CmdStatus.BAD_PARAM_ERR, "a register field holds a value the port does not accept"),
    PAGES_IN_USE(0x14, CmdStatus.BAD_SYS_STATE_ERR, "pages still held (reclaim them with MANAGE_PAGES before DISABLE_HCA)"),
    BAD_TEARDOWN_PROFILE(0x15, CmdStatus.BAD_PARAM_ERR, "teardown profile not graceful, force-close or prepare-fast-teardown"),
    OUT_OF_NUMBERS(0x16, CmdStatus.LIM_ERR, "the capability's log_max_* limit of such objects is reached"),
    NO_SUCH_OBJECT(0x17, CmdStatus.BAD_RES_ERR, "the number names no object of that kind"),
    OBJECT_IN_USE(0x18, CmdStatus.RES_BUSY, "the object is still referenced by another object"),
    SIZE_ABOVE_MAX(0x19, CmdStatus.LIM_ERR, "a log size above the capability's log_max_*"),
    BAD_FIELD(0x1a, CmdStatus.BAD_PARAM_ERR, "a context field holds a value out of range or unsupported"),
    BAD_REFERENCE(0x1b, CmdStatus.BAD_RES_ERR, "the context references an object (CQ, EQ, PD, TD, UAR, RQ, TIS, table) that does not exist"),
    RING_NOT_MAPPED(0x1c, CmdStatus.BAD_PARAM_ERR, "a queue or doorbell-record page is not mapped for DMA, or the page list is too short"),
    BAD_STATE_TRANSITION(0x1d, CmdStatus.BAD_RES_STATE_ERR, "the object's state machine has no such transition"),
    CURRENT_STATE_MISMATCH(0x1e, CmdStatus.BAD_QP_STATE_ERR, "the current state given in the command is not the object's state"),
    BAD_INDEX(0x1f, CmdStatus.IX_ERR, "an index outside the table or group"),
    INDEX_IN_USE(0x20, CmdStatus.BAD_PARAM_ERR, "a flow index or group range already taken"),
    MTU_ABOVE_PORT(0x21, CmdStatus.BAD_PARAM_ERR, "path or vport MTU above what the port supports"),
    OPT_PARAM_NOT_ALLOWED(0x22, CmdStatus.BAD_PARAM_ERR, "opt_param_mask names a field this transition does not take"),
    BAD_UID(0x23, CmdStatus.BAD_PARAM_ERR, "the header's uid names no user context, or uid 0 where the device does not allow it (umem_uid_0)"),
    NOT_OWNER(0x24, CmdStatus.BAD_RES_ERR, "the object belongs to another user context (the uid it was created with)"),
    UMEM_RANGE(0x25, CmdStatus.BAD_PARAM_ERR, "a buffer or doorbell record lies outside its umem, is misaligned, or uses a umem it may not"),
    INJECTED(0xff, CmdStatus.INT_ERR, "fault injected by the test");

    public final int reason;
    public final CmdStatus status;
    public final String doc;

    Syndrome(int reason, CmdStatus status, String doc) {
        this.reason = reason;
        this.status = status;
        this.doc = doc;
    }

    /** The syndrome value for this reason in command {@code opcode}. */
    public int value(int opcode) {
        return 0x5c00_0000 | (opcode & 0xffff) << 8 | reason;
    }

    /** The error to throw from a handler of {@code opcode}, with a message for the trace. */
    public CommandError error(int opcode, String why) {
        return new CommandError(status, value(opcode), name() + ": " + why);
    }

    /** "INIT_HCA: MISSING_PAGES (...)" for one of ours, or the hex value for anything else. */
    public static String describe(int syndrome) {
        if ((syndrome & 0xff00_0000) == 0x5c00_0000) {
            int reason = syndrome & 0xff;
            int opcode = (syndrome >>> 8) & 0xffff;
            for (Syndrome s : values()) {
                if (s.reason == reason) {
                    String op = io.prmkit.mlx5.CmdOpcode.nameOf(opcode);
                    return (op == null ? "opcode 0x" + Integer.toHexString(opcode) : op) + ": " + s.name() + " (" + s.doc + ")";
                }
            }
        }
        return "0x" + Integer.toHexString(syndrome);
    }
}
