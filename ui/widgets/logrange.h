#pragma once

namespace napkin::ui {

/// A visible range of a logarithmic axis; zoom and pan act on the logarithms so that a
/// wheel step or a drag moves the view by the same fraction of decades everywhere.
struct LogRange {
    double lo = 1;
    double hi = 10;

    bool operator==(const LogRange &) const = default;

    /// Scales the span by `factor` (< 1 zooms in) keeping `anchor` at the same screen fraction.
    LogRange zoomed(double anchor, double factor) const;
    /// Shifts by `fraction` of the visible span (positive moves the view towards larger values).
    LogRange panned(double fraction) const;
    /// The smallest range of whole decades holding [lo, hi] with `marginDecades` each side.
    static LogRange decadesAround(double lo, double hi, double marginDecades);
};

} // namespace napkin::ui
