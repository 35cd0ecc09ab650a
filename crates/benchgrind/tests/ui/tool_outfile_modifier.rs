use benchgrind::{Tool, ValgrindTool};

fn main() {
    let _tool = Tool::new(ValgrindTool::DHAT)
        .args(["--trace-children=yes"])
        .outfile_modifier("%p");
}
