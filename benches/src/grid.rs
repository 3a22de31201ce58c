//! grids
