// Package solid is the room of cadrun's solids: profiles from the 2D scene extruded and
// revolved, primitives, 3D booleans, their measures and meshes. The kernel that computes them,
// manifold run as WebAssembly, is internal to it (scene/solid/internal/manifold), so that no
// other package knows WebAssembly and the 2D scene never loads it: a run that makes no solid
// does not compile or start the kernel.
package solid
