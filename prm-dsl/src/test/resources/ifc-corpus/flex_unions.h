/*
 * prmkit test header: flexible arrays in and out of unions, in the shapes newer kernel
 * mlx5_ifc.h headers use (DECLARE_FLEX_ARRAY beside fixed alternatives, over several lines;
 * unions of flexible alternatives only; flexible tails of plain structures). Written for
 * prmkit's tests; not taken from any header.
 */
#ifndef PRMKIT_CORPUS_FLEX_UNIONS_H
#define PRMKIT_CORPUS_FLEX_UNIONS_H

struct mlx5_ifc_demo_entry_bits {
	u8         id[0x10];
	u8         kind[0x10];

	u8         addr[0x40];
};

union mlx5_ifc_demo_params_bits {
	struct mlx5_ifc_demo_entry_bits entry;
	u8         raw[0x100];
};

/* a reply whose tail is reserved space, or as many records as the count says */
struct mlx5_ifc_demo_query_out_bits {
	u8         status[0x8];
	u8         reserved_at_8[0x18];

	u8         syndrome[0x20];

	u8         count[0x8];
	u8         reserved_at_48[0x18];

	union {
		u8 reserved_at_60[0x3a0];
		DECLARE_FLEX_ARRAY(union mlx5_ifc_demo_params_bits,
				   params);
	};
};

/* a table of one kind of entry or another: flexible alternatives only */
struct mlx5_ifc_demo_table_bits {
	u8         log_size[0x5];
	u8         reserved_at_5[0x1b];

	union {
		DECLARE_FLEX_ARRAY(struct mlx5_ifc_demo_entry_bits, entries);
		u8         ids[0][0x20];
	};
};

/* flexible arrays that end a structure, outside any union */
struct mlx5_ifc_demo_pas_bits {
	u8         npas[0x20];

	u8         reserved_at_20[0x20];

	u8         pas[][0x40];
};

struct mlx5_ifc_demo_list_bits {
	u8         n[0x10];
	u8         reserved_at_10[0x10];

	DECLARE_FLEX_ARRAY(struct mlx5_ifc_demo_entry_bits, list);
};

/* a union declared on its own with a flexible alternative, and a structure ending in it */
union mlx5_ifc_demo_any_bits {
	u8         raw[0x40];
	DECLARE_FLEX_ARRAY(struct mlx5_ifc_demo_entry_bits, entries);
};

struct mlx5_ifc_demo_any_holder_bits {
	u8         kind[0x20];

	union mlx5_ifc_demo_any_bits any;
};

#endif
