# layout.gp - Figure 1 of the DL paper: speedup over AoS of DA and ASTA(T)
# against the fields per record S, with the spread of the repetitions.
# Data: layout_speedup.dat (dl-bench suite): S, then for DA and ASTA(4),
# ..., ASTA(64) three columns: speedup (median), at the slowest and at the
# fastest repetition.  Redraw: gnuplot -e "term='pngcairo'" layout.gp
if (!exists("term")) term = 'pngcairo'
if (!exists("info")) info = ''
if (!exists("palette")) palette = '#0072B2 #D55E00 #009E73 #CC79A7 #56B4E9 #E69F00 #000000'
set terminal @term size 900,520 noenhanced
set output 'layout.png'
set title 'Layout microbenchmark: speedup over AoS (above 1: faster than AoS)'
set label 1 info at screen 0.01, screen 0.03 left font ',9'
set bmargin 5
set xlabel 'fields per record S'
set ylabel 'time(AoS) / time(layout), log scale'
set logscale x 2
set logscale y
set xtics (1, 2, 3, 4, 5, 8, 12, 16, 20, 32)
set key outside right
set grid
set datafile missing 'NaN'
names = 'DA ASTA(4) ASTA(8) ASTA(16) ASTA(32) ASTA(64)'
plot 1 with lines dt 2 lw 2 lc rgb '#999999' title 'AoS', \
     for [i=0:5] 'layout_speedup.dat' \
         using 1:(column(2+3*i)):(column(3+3*i)):(column(4+3*i)) \
         with yerrorlines lw 2 pt 7 lc rgb word(palette, i+1) \
         title word(names, i+1)
