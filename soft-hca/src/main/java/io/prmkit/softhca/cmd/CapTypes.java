package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.HcaCapType;
import io.prmkit.mlx5.HcaCapUnion;
import io.prmkit.layout.PrmLayout;

/** The capability types the device answers in QUERY_HCA_CAP and SET_HCA_CAP, and each one's page layout. */
public final class CapTypes {
    private CapTypes() {}

    /**
     * Cap types the device answers (others: BAD_PARAM). The eswitch types are there because Linux
     * reads them on every function that is an eswitch manager, as the ConnectX-4 is; the card's
     * pages of them were not captured, so they are all zero (no eswitch features: Linux creates
     * no FDB), like general 2 (the card has no {@code hca_cap_2}).
     */
    static final int[] TYPES = {
        HcaCapType.GENERAL$VALUE, HcaCapType.ETHERNET_OFFLOADS$VALUE, HcaCapType.ATOMIC$VALUE,
        HcaCapType.ROCE$VALUE, HcaCapType.FLOW_TABLE$VALUE, HcaCapType.ESWITCH_FLOW_TABLE$VALUE,
        HcaCapType.ESWITCH$VALUE, HcaCapType.GENERAL_2$VALUE};

    /** The cap types the device answers, in order (a copy). */
    public static int[] types() {
        return TYPES.clone();
    }

    /** The layout of the capability page of {@code type}, or null for a type the device does not answer. */
    public static PrmLayout.Struct layoutOf(int type) {
        if (java.util.Arrays.stream(TYPES).noneMatch(t -> t == type)) return null;
        return capPageLayout(type);
    }

    /** The alternative of {@code hca_cap_union} whose {@code when} value is {@code type}, or null. */
    public static PrmLayout.Struct capPageLayout(int type) {
        for (PrmLayout.Field f : HcaCapUnion.layout().fields()) {
            if (f.kind() == PrmLayout.Kind.STRUCT && f.variant().isPresent() && f.variant().get().tag().isPresent()
                    && f.variant().get().tag().getAsLong() == type) {
                return f.target().orElse(null);
            }
        }
        return null;
    }
}
