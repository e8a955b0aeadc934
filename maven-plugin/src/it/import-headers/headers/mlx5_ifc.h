/* A tiny header in the kernel's mlx5_ifc convention: one u8 per bit. */
#include "mlx5_ifc_extra.h"

struct mlx5_ifc_ring_db_bits {
	u8         counter[0x10];
	u8         reserved_at_10[0xc];
	u8         ring[0x4];

	struct mlx5_ifc_db_key_bits key;
};
