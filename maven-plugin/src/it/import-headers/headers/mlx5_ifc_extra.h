struct mlx5_ifc_db_key_bits {
	u8         key[0x20];
};
