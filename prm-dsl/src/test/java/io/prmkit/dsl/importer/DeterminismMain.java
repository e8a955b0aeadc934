package io.prmkit.dsl.importer;

import io.prmkit.dsl.SourceFile;
import java.util.ArrayList;
import java.util.List;

/** IfcImporterTest's second JVM: imports {@link #header()} on a thread of its own, after other allocations, and prints the result. */
public final class DeterminismMain {
    private DeterminismMain() {}

    /** Forty structures (each with a union and arrays), a dozen enums: enough that an order taken from a hash would show. */
    static String header() {
        StringBuilder h = new StringBuilder();
        for (int e = 0; e < 12; e++) {
            h.append("enum {\n");
            for (int v = 0; v < 6; v++) h.append("\tMLX5_E").append(e).append("_V").append(v).append(" = ").append(v * 3 + e).append(",\n");
            h.append("};\n");
        }
        for (int i = 0; i < 40; i++) {
            h.append("union mlx5_ifc_alt").append(i).append("_bits {\n\tu8 x").append(i).append("[0x20];\n\tu8 y").append(i).append("[0x20];\n};\n");
            h.append("struct mlx5_ifc_s").append(i).append("_bits {\n\tu8 a").append(i).append("[0x8];\n\tu8 reserved_at_8[0x18];\n");
            h.append("\tunion mlx5_ifc_alt").append(i).append("_bits u;\n\tu8 b[0x20];\n};\n");
        }
        return h.toString();
    }

    static String render(ImportResult r) {
        StringBuilder sb = new StringBuilder();
        for (SourceFile f : r.dslFiles()) sb.append("== ").append(f.name()).append('\n').append(f.text());
        r.notes().forEach(n -> sb.append("note: ").append(n).append('\n'));
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        List<Object> other = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) other.add(new Object()); // moves identity hashes and addresses
        String[] out = new String[1];
        Thread t = new Thread(() -> out[0] = render(IfcImporter.importSources(List.of(new SourceFile("t.h", header())), ImportOptions.DEFAULTS)));
        t.start();
        t.join();
        System.out.print(out[0]);
        if (other.isEmpty()) System.out.println();
    }
}
