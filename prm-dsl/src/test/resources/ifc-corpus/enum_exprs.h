/*
 * prmkit test header: enum values written as expressions of other enums' values, and widths
 * and counts written with them. Written for prmkit's tests; not taken from any header.
 */
#ifndef PRMKIT_CORPUS_ENUM_EXPRS_H
#define PRMKIT_CORPUS_ENUM_EXPRS_H

enum {
	MLX5_DEMO_SHIFT_BASE      = 0x4,
	MLX5_DEMO_SHIFT_NEXT      = MLX5_DEMO_SHIFT_BASE + 2,
};

enum mlx5_demo_caps {
	MLX5_DEMO_CAP_A     = BIT(MLX5_DEMO_SHIFT_BASE),
	MLX5_DEMO_CAP_B     = 1ULL << MLX5_DEMO_SHIFT_NEXT,
	MLX5_DEMO_CAP_AB    = MLX5_DEMO_CAP_A | MLX5_DEMO_CAP_B,
	MLX5_DEMO_CAP_MASK  = (MLX5_DEMO_CAP_AB << 1) - 1,
	MLX5_DEMO_CAP_NEXT,
};

enum {
	MLX5_DEMO_NUM_SLOTS = MLX5_DEMO_SHIFT_NEXT * 2,
	MLX5_DEMO_SLOT_BITS = MLX5_DEMO_SHIFT_BASE * 8,
};

#define MLX5_DEMO_TOTAL (MLX5_DEMO_NUM_SLOTS + 1)

struct mlx5_ifc_demo_slots_bits {
	u8         slot[MLX5_DEMO_NUM_SLOTS][MLX5_DEMO_SLOT_BITS];

	u8         extra[MLX5_DEMO_TOTAL][0x8];
	u8         mask[MLX5_DEMO_SHIFT_NEXT];
	u8         reserved_at_1ee[0x12];
};

#endif
