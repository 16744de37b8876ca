#include "floe/cli/app.h"

int main(int argc, char** argv) { return floe::cli::Main(argc, argv); }
