/*
 * prmkit test header: GNU attributes that change nothing in the mlx5_ifc convention (every
 * member an array of bytes, so nothing is ever padded). Written for prmkit's tests.
 */
#ifndef PRMKIT_CORPUS_ATTRIBUTES_H
#define PRMKIT_CORPUS_ATTRIBUTES_H

struct mlx5_ifc_demo_packed_bits {
	u8         a[0x8] __packed;
	u8         b[0x18];

	u8         c[0x20] __attribute__((packed));
} __packed;

struct mlx5_ifc_demo_attr_list_bits {
	u8         n[0x20];

	DECLARE_FLEX_ARRAY(struct mlx5_ifc_demo_packed_bits, items) __packed;
} __attribute__((__packed__));

#endif
