"""sleetnet: 3-D voxel classifier for frozen precipitation particles."""
