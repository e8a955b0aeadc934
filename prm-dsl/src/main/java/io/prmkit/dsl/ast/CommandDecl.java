package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code command NAME [ref "..."] { opcode V; in S [oldest N]; out S; op_mod E | op_mod {...}; register F data D; }}:
 * a PRM command. Every clause is optional in the syntax; the commands pass says which are missing.
 *
 * @param opcode      the opcode, when not the command's own name
 * @param in          the input structure
 * @param oldest      the oldest (shortest) input length a device accepts, when shorter than {@code in}
 * @param out         the output structure
 * @param opModEnum   the enum naming the op_mod values, when one is named
 * @param opModValues the op_mod values written in the command ({@code op_mod { NAME = N; ... }})
 * @param carries     for the command that carries registers: the input field holding the register id and the data member
 */
public record CommandDecl(
        Name name,
        Optional<ValueRef> opcode,
        Optional<QName> in,
        Optional<Num> oldest,
        Optional<QName> out,
        Optional<QName> opModEnum,
        Optional<List<EnumDecl.Value>> opModValues,
        Optional<Carries> carries,
        String ref,
        String since,
        String doc,
        SourceLocation location) implements Decl {

    public CommandDecl {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(opcode, "opcode == null");
        Objects.requireNonNull(in, "in == null");
        Objects.requireNonNull(oldest, "oldest == null");
        Objects.requireNonNull(out, "out == null");
        Objects.requireNonNull(opModEnum, "opModEnum == null");
        opModValues = opModValues.map(List::copyOf);
        Objects.requireNonNull(carries, "carries == null");
        Objects.requireNonNull(ref, "ref == null");
        Objects.requireNonNull(since, "since == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
    }

    @Override
    public String kindWord() {
        return "command";
    }

    /** {@code register ID_FIELD data DATA_MEMBER;} */
    public record Carries(Name idField, Name dataMember, SourceLocation location) {
        public Carries {
            Objects.requireNonNull(idField, "idField == null");
            Objects.requireNonNull(dataMember, "dataMember == null");
            Objects.requireNonNull(location, "location == null");
        }
    }
}
