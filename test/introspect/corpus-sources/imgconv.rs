use clap::{Parser, ValueEnum};

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Format { Png, Jpeg, Webp }

/// Convert images between formats, resizing them on the way
#[derive(Parser, Debug)]
#[command(name = "imgconv", version, about)]
struct Args {
    /// Input image files
    #[arg(required = true)]
    inputs: Vec<std::path::PathBuf>,

    /// Directory to write converted images into
    #[arg(short, long, value_name = "DIR", default_value = "out")]
    output_dir: std::path::PathBuf,

    /// Output format
    #[arg(short, long, value_enum, default_value_t = Format::Png)]
    format: Format,

    /// JPEG/WebP quality from 1 to 100
    #[arg(short, long, default_value_t = 85)]
    quality: u8,

    /// Scale factor applied to both dimensions
    #[arg(long, value_name = "FACTOR")]
    scale: Option<f64>,

    /// Overwrite existing files
    #[arg(long)]
    force: bool,

    /// Increase logging verbosity (can be repeated)
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,

    /// Strip metadata tag; may be given several times
    #[arg(long = "strip", value_name = "TAG")]
    strip: Vec<String>,

    /// Number of worker threads
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    jobs: Option<usize>,
}

fn main() { let a = Args::parse(); println!("{:?}", a); }
