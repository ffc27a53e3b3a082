#pragma once

// An export setting, not a figure: it lives in ui/, and the command line (app/) reads it for
// `--format`. Header only and free of widgets, so the command-line library needs no Qt GUI.

#include <QLatin1String>
#include <QString>

#include <optional>

namespace napkin {

/// What an exported chart is written as: a PNG (pixels, `--scale` device pixels per pixel), or
/// SVG and PDF (vectors, text kept as text, `--size` in pixels at 96 per inch).
enum class ImageFormat { Png, Svg, Pdf };
inline constexpr ImageFormat kAllImageFormats[] = {ImageFormat::Png, ImageFormat::Svg, ImageFormat::Pdf};

/// "png", "svg", "pdf": the value of `--format` and the file name's suffix.
inline QLatin1String imageFormatName(ImageFormat format)
{
    switch (format) {
    case ImageFormat::Png: return QLatin1String("png");
    case ImageFormat::Svg: return QLatin1String("svg");
    case ImageFormat::Pdf: return QLatin1String("pdf");
    }
    return {};
}

/// The format `--format` names, if any.
inline std::optional<ImageFormat> imageFormatFromName(const QString &name)
{
    for (ImageFormat format : kAllImageFormats)
        if (name == imageFormatName(format))
            return format;
    return std::nullopt;
}

} // namespace napkin
