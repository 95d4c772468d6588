# irregular_methods.gp - part 7 of the suite: every method on every
# workload (dl-bench irregular's rows, GPU class W=32 S=128): transactions
# per warp-access (top) and the net speedup over N launches, reorganisation
# included (bottom), a colour per method.
# Data (dl-bench suite): irregular_methods.dat: index, label, tx per
# warp-access, speedup_n, method (0 none .. 5 remap).
if (!exists("term")) term = 'pngcairo'
if (!exists("info")) info = ''
if (!exists("nrows")) nrows = 60
if (!exists("iters")) iters = 50
set terminal @term size 1400,900 noenhanced
set output 'irregular_methods.png'
set datafile missing 'NaN'
set style fill solid 0.9 border -1
set grid ytics
set xrange [-0.6:nrows-0.4]
array colour[6] = [0x999999, 0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00]
array name[6] = ['none', 'duplication', 'padding', 'sharing', 'job swap', 'remap']
set multiplot title 'Irregular references: every method'
set lmargin 12
set rmargin 3
set origin 0, 0.55
set size 1, 0.41
set tmargin 1
set bmargin 1
set logscale y
set yrange [0.5:*]
set key top left horizontal
set ylabel 'transactions per warp-access'
set format x ''
plot for [m=0:5] 'irregular_methods.dat' using 1:($5==m ? $3 : NaN):(0.8) \
     with boxes lc rgb colour[m+1] title name[m+1]
unset logscale y
set format x
set origin 0, 0.04
set size 1, 0.51
set bmargin 12
set tmargin 1
set yrange [0:*]
set ylabel sprintf('net speedup over %d launches', iters)
unset key
set xtics rotate by 60 right font ',7'
set label 1 info at screen 0.01, screen 0.02 left font ',9'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 2 lc rgb '#555555'
plot for [m=0:5] 'irregular_methods.dat' using 1:($5==m ? $4 : NaN):(0.8):xtic(2) \
     with boxes lc rgb colour[m+1] notitle
unset multiplot
