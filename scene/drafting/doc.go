// Package drafting is the drafting room's tables: the linetypes a stroke may have
// (Linetypes, Dashes) and the hatch patterns a closed shape may have (HatchPatterns,
// HatchPattern.Placed), as pure data and functions of a name, a scale and an angle.
//
// Start with LookupLinetype and LookupHatch, which check a name and say which names there
// are. What a scene does with them (an entity's linetype, layer and hatch, the dash and
// hatch budgets, the hatch lines clipped to a shape) is package scene's.
package drafting
