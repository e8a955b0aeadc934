/*
 * prmkit test header: anonymous unions and structures nested in each other, with flexible
 * tails. Written for prmkit's tests; not taken from any header.
 */
#ifndef PRMKIT_CORPUS_NESTED_UNIONS_H
#define PRMKIT_CORPUS_NESTED_UNIONS_H

struct mlx5_ifc_demo_hdr_bits {
	u8         opcode[0x10];
	u8         uid[0x10];

	u8         reserved_at_20[0x10];
	u8         op_mod[0x10];
};

/* the tail is a record with a flexible payload, or reserved space */
struct mlx5_ifc_demo_cmd_in_bits {
	struct mlx5_ifc_demo_hdr_bits hdr;

	union {
		struct {
			u8         len[0x10];
			u8         kind[0x10];

			u8         data[][0x8];
		};
		u8         reserved_at_40[0x80];
	};
};

/* a union inside a union: its alternatives are the outer union's */
struct mlx5_ifc_demo_nested_bits {
	u8         kind[0x20];

	union {
		union {
			u8         a[0x20];
			u8         b[0x40];
		};
		DECLARE_FLEX_ARRAY(struct mlx5_ifc_demo_hdr_bits, hdrs);
	};
};

/* an anonymous structure inside a structure, ending in a flexible array */
struct mlx5_ifc_demo_wrapped_bits {
	u8         n[0x20];

	struct {
		u8         m[0x20];

		u8         items[][0x20];
	};
};

/* a structure ending in a flexible array, nested mid-structure: only its fixed part counts */
struct mlx5_ifc_demo_outer_bits {
	struct mlx5_ifc_demo_wrapped_bits first;

	u8         after[0x20];
};

#endif
